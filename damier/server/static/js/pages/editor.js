// #/editor/<game>[?options=JSON] : the position editor, for games whose client description has a palette. Start
// from a setup (or the start the options give), move pieces (click a piece then a square, or drag it), turn them
// through the facings the palette gives, remove them, add them from the palette within each side's limits, set the
// position's other fields (the side to move...), read or paste the position string, and start a game from it.
// The board is drawn by the game's board module; the server writes the position of the board and checks it
// (POST /api/positions/board), and reads a pasted string (POST /api/positions): no rule is written here.
import { openAnalysis } from "./analysis.js";
import { h, icon, replace } from "../dom.js";
import { api } from "../api.js";
import { boardModule } from "../games/index.js";
import { showError } from "../messages.js";
import { said, t } from "../i18n.js";
import { seatColour } from "../players.js";
import { startGame, defaultLevel, optionDefaults, levelsOf, seatCount } from "../session.js";
import { optionField, seatRow, loadEntry } from "./newgame.js";

const CHECK_DELAY_MS = 150;

export async function mount(root, { params, query }) {
  const page = h("div", { class: `page editor-page game-${params.game}` });
  root.append(page);
  const entry = await loadEntry(page, params.game);
  if (!entry) return undefined;
  const mod = await boardModule(entry);
  if (!mod.palette) {
    page.append(h("div", { class: "panel empty-state" },
      h("h1", {}, t("editor.none", { title: entry.title })),
      h("p", {}, t("editor.none_help")),
      h("a", { class: "btn primary", href: `#/new/${encodeURIComponent(entry.name)}` }, t("editor.new_game"))));
    return undefined;
  }
  document.title = t("editor.document_title", { title: entry.title });
  const editor = new Editor(page, entry, mod, initialOptions(entry, query));
  editor.build(query.get("position"));
  return () => editor.destroy();
}

function initialOptions(entry, query) {
  const values = optionDefaults(entry);
  try {
    const given = JSON.parse(query.get("options") || "{}");
    for (const opt of entry.options || []) if (opt.name in given) values[opt.name] = given[opt.name];
  } catch { /* a hand-made address: keep the defaults */ }
  return values;
}

class Editor {
  constructor(page, entry, mod, options) {
    this.page = page;
    this.entry = entry;
    this.mod = mod;
    this.palette = mod.palette;
    this.options = options;
    this.names = mod.seatNames(seatCount(entry, options));
    this.board = null; // the board being set up: the server's board object, its pieces and fields edited here
    this.selected = null; // square of the piece picked up
    this.armed = null; // {kind, colour} from the palette, placed by the next click on an empty square
    this.checked = null; // the server's answer for the board shown: {position, valid}
    this.checkTimer = null;
    this.checkSeq = 0;
    this.drag = null;
    this.seatChoices = this.names.map((_, i) => ({ kind: i === 0 ? "human" : "computer", level: defaultLevel(entry) }));
    this.onKey = (e) => this.keydown(e);
    this.onPointerMove = (e) => this.pointerMove(e);
    this.onPointerUp = (e) => this.pointerUp(e);
  }

  destroy() {
    clearTimeout(this.checkTimer);
    document.removeEventListener("keydown", this.onKey);
    document.removeEventListener("pointermove", this.onPointerMove);
    document.removeEventListener("pointerup", this.onPointerUp);
    this.drag?.ghost?.remove();
  }

  // ---- page ------------------------------------------------------------------------------------------------------

  build(position = null) {
    const el = {};
    el.status = h("div", { class: "status editor-status", "data-testid": "editor-status", "aria-live": "polite" });
    el.board = h("div", { class: "board-wrap", "data-testid": "board" });
    el.board.addEventListener("pointerdown", (e) => this.pointerDown(e));
    el.selection = h("span", { class: "board-info", "data-testid": "editor-selection" });
    el.ccw = h("button", { type: "button", class: "btn small", "data-testid": "editor-rotate-ccw", title: t("editor.turn_ccw_title"), onclick: () => this.turn(-1) },
      icon("turn-ccw"), t("editor.turn_ccw"));
    el.cw = h("button", { type: "button", class: "btn small", "data-testid": "editor-rotate-cw", title: t("editor.turn_cw_title"), onclick: () => this.turn(1) },
      icon("turn-cw"), t("editor.turn_cw"));
    el.remove = h("button", { type: "button", class: "btn small", "data-testid": "editor-remove", title: t("editor.remove_title"), onclick: () => this.removeSelected() },
      icon("x"), t("editor.remove"));
    el.selectionBar = h("div", { class: "board-bar" }, h("div", { class: "board-bar-row" }, el.selection, h("span", { class: "board-turns" }, el.ccw, el.cw, el.remove)));
    const kept = [...new Set(this.palette.pieces.filter((p) => p.required).map((p) => p.label))];
    el.starts = h("div", { class: "presets", role: "group", "aria-label": t("editor.start_from") },
      this.mod.setups.map((setup) => h("button", {
        type: "button", class: "chip", "data-testid": `editor-start-${setup.id}`, onclick: () => this.setBoard(setup.board),
      }, setup.label)),
      h("button", { type: "button", class: "chip", "data-testid": "editor-clear",
        title: t("editor.clear_title", { pieces: kept.join(", ") }), onclick: () => this.clear() }, t("editor.clear")));
    el.palette = h("div", { class: "palette", role: "group", "aria-label": t("editor.add_piece") });
    el.fields = this.palette.fields.map((field) => this.fieldInput(field));
    el.position = h("textarea", { id: "editor-position", rows: 3, spellcheck: "false", "data-testid": "editor-position", "aria-label": t("editor.position_string") });
    el.load = h("button", { type: "button", class: "btn small", "data-testid": "editor-load", onclick: () => this.loadText() }, t("editor.load"));
    el.copy = h("button", { type: "button", class: "btn small ghost", "data-testid": "editor-copy", onclick: () => this.copyPosition() }, icon("copy"), t("editor.copy"));
    el.optionInputs = {};
    const replaced = new Set(this.palette.position_options || []);
    el.options = (this.entry.options || []).filter((o) => !replaced.has(o.name))
      .map((opt) => optionField(opt, this.options, el.optionInputs, () => this.changed()));
    el.seats = h("div", { class: "seat-rows" }, this.names.map((n, i) => seatRow(i, n, this.seatChoices[i], levelsOf(this.entry))));
    el.start = h("button", { type: "button", class: "btn primary big", "data-testid": "editor-start", onclick: () => this.startGame() }, t("editor.start_game"));
    el.analyse = this.entry.analysis ? h("button", {
      type: "button", class: "btn big", "data-testid": "editor-analyse", title: t("editor.analyse_title"),
      onclick: () => this.analyse() }, icon("cpu"), t("editor.analyse")) : null;
    el.startError = h("p", { class: "form-error", role: "alert", hidden: true });
    this.el = el;
    for (const [opt, input] of Object.entries(el.optionInputs)) {
      if (input.type === "checkbox") input.checked = !!this.options[opt];
      else input.value = String(this.options[opt]);
    }
    replace(this.page,
      h("a", { class: "back", href: `#/new/${encodeURIComponent(this.entry.name)}` },
        icon("prev"), t("editor.new_game")),
      h("h1", {}, t("editor.heading", { title: this.entry.title })),
      h("p", { class: "lead" }, t("editor.lead")),
      h("div", { class: "game-layout" },
        // the palette right under the board (on a phone it was below every panel, far from the board)
        h("section", { class: "board-col", "aria-label": t("editor.board") }, el.status, el.board, el.selectionBar,
          h("section", { class: "panel", "aria-labelledby": "ed-palette", "data-testid": "palette-panel" }, h("h2", { id: "ed-palette" }, t("editor.add_piece")), el.palette),
          h("section", { class: "panel", "aria-labelledby": "ed-play" },
            h("h2", { id: "ed-play" }, t("editor.play_it")),
            h("div", { class: "option-fields" }, el.options),
            el.seats, el.startError, h("div", { class: "form-actions" }, el.start, el.analyse))),
        h("aside", { class: "side-col" },
          h("section", { class: "panel", "aria-labelledby": "ed-start" },
            h("h2", { id: "ed-start" }, t("editor.start_from")), el.starts),
          h("section", { class: "panel", "aria-labelledby": "ed-position" },
            h("h2", { id: "ed-position" }, t("editor.position")),
            el.fields.map((f) => f.field),
            h("div", { class: "field" }, el.position),
            h("div", { class: "more-actions" }, el.load, el.copy)))));
    document.addEventListener("keydown", this.onKey);
    this.setStatus("checking", t("editor.status.loading"));
    if (position) {
      el.position.value = position; // back from the analysis board: the position analysed
      this.loadText();
    } else {
      this.loadStart();
    }
  }

  /** An input for one of the position's fields besides the pieces (`seat`: a select of the seats; `int`). */
  fieldInput(field) {
    const id = `editor-${field.id}`;
    let input;
    if (field.type === "seat") {
      input = h("select", { id, "data-testid": id, "aria-label": field.label },
        this.names.map((n, i) => h("option", { value: String(i) }, t("editor.to_move", { side: n }))));
      input.addEventListener("change", () => { this.board[field.key] = Number(input.value); this.changed(); });
      return { field: h("div", { class: "field" }, input), input, spec: field };
    }
    input = h("input", { id, type: "number", min: field.min ?? null, max: field.max ?? null, step: 1, inputmode: "numeric", "data-testid": id, title: field.help || null });
    input.addEventListener("input", () => {
      const n = Number(input.value);
      if (input.value === "" || !Number.isInteger(n) || (field.min !== undefined && n < field.min)) return; // half typed: wait
      this.board[field.key] = n;
      this.changed();
    });
    input.addEventListener("change", () => { input.value = String(this.board[field.key]); });
    return { field: h("div", { class: "field" }, h("label", { for: id }, field.label), input), input, spec: field };
  }

  // ---- the board -------------------------------------------------------------------------------------------------

  async loadStart() {
    try {
      const answer = await api.position(this.entry.name, { ...this.options });
      this.setBoard(answer.board);
    } catch (err) {
      this.setStatus("invalid", err.message);
    }
  }

  /** Edit a copy of `board` (a setup's, or the server's reading of a position). */
  setBoard(board) {
    this.board = { ...board, pieces: (board.pieces || []).map((p) => ({ ...p })), previews: {}, moves: {} };
    this.selected = null;
    this.armed = null;
    this.changed();
  }

  loadText() {
    const text = this.el.position.value.trim();
    clearTimeout(this.checkTimer);
    const seq = ++this.checkSeq;
    this.setStatus("checking", t("editor.status.reading"));
    api.position(this.entry.name, { ...this.options }, text).then((answer) => {
      if (seq === this.checkSeq) this.setBoard(answer.board);
    }, (err) => {
      if (seq !== this.checkSeq) return;
      this.checked = { position: text, valid: false };
      this.setStatus("invalid", reason(err));
    });
  }

  clear() {
    this.board.pieces = this.board.pieces.filter((p) => this.entryOf(p)?.required);
    this.selected = null;
    this.changed();
  }

  entryOf(piece) {
    return this.palette.pieces.find((p) => p.kind === piece.kind && p.colour === piece.colour) || null;
  }

  pieceAt(square) {
    return this.board.pieces.find((p) => p.square === square) || null;
  }

  words(piece) {
    return t("editor.piece_name", { side: this.names[piece.colour], piece: this.entryOf(piece)?.label || piece.kind });
  }

  onSquare(square) {
    const piece = this.pieceAt(square);
    if (this.armed) {
      if (piece) {
        this.say(t("editor.square_taken", { square, piece: this.entryOf(this.armed).label }));
        return;
      }
      const entry = this.entryOf(this.armed);
      this.board.pieces.push({ square, kind: entry.kind, colour: entry.colour, facing: entry.facing });
      if (this.left(entry) <= 0) this.armed = null;
      this.selected = square;
      this.changed();
      return;
    }
    if (this.selected && !piece) {
      this.moveTo(this.selected, square);
      return;
    }
    this.selected = piece && square !== this.selected ? square : null;
    this.draw();
  }

  moveTo(from, to) {
    const piece = this.pieceAt(from);
    if (!piece || from === to || this.pieceAt(to)) return;
    piece.square = to;
    this.selected = to;
    this.changed();
  }

  /** Turn the selected piece to the next facing the palette gives it (clockwise order), or the previous one. */
  turn(step) {
    const piece = this.selected && this.pieceAt(this.selected);
    const facings = piece && this.entryOf(piece)?.facings;
    if (!facings?.length) return;
    const at = facings.indexOf(piece.facing);
    piece.facing = at < 0 ? facings[0] : facings[(at + (step > 0 ? 1 : facings.length - 1)) % facings.length];
    this.changed();
  }

  removeSelected() {
    if (!this.selected) return;
    this.board.pieces = this.board.pieces.filter((p) => p.square !== this.selected);
    this.selected = null;
    this.changed();
  }

  /** How many more of a palette entry's piece may be placed. */
  left(entry) {
    return entry.limit - this.board.pieces.filter((p) => p.kind === entry.kind && p.colour === entry.colour).length;
  }

  /** The board as the server takes it: the pieces and the fields. */
  edited() {
    const out = { pieces: this.board.pieces.map(({ square, kind, colour, facing }) => ({ square, kind, colour, facing })) };
    for (const field of this.palette.fields) out[field.key] = this.board[field.key];
    return out;
  }

  changed() {
    if (!this.board) return;
    for (const { input, spec } of this.el.fields) {
      if (document.activeElement !== input) input.value = String(this.board[spec.key] ?? "");
    }
    this.draw();
    this.renderPalette();
    clearTimeout(this.checkTimer);
    this.setStatus("checking", t("editor.status.checking"));
    const seq = ++this.checkSeq;
    this.checkTimer = setTimeout(() => this.check(seq), CHECK_DELAY_MS);
  }

  async check(seq) {
    let answer = null;
    let error = null;
    try {
      answer = await api.positionOfBoard(this.entry.name, { ...this.options }, this.edited());
    } catch (err) {
      error = err;
    }
    if (seq !== this.checkSeq) return; // a newer position is being checked
    if (answer) this.el.position.value = answer.position;
    this.checked = { position: answer?.position ?? null, valid: !!answer?.valid };
    if (answer?.valid) {
      const side = this.names[answer.player] || "";
      this.setStatus("valid", t("editor.status.valid", { side, count: answer.legal_moves }));
    } else {
      this.setStatus("invalid", answer ? reason({ message: said(answer), status: 422, body: answer }) : reason(error));
    }
  }

  setStatus(state, text) {
    const el = this.el.status;
    el.dataset.valid = state === "valid" ? "true" : state === "invalid" ? "false" : "checking";
    replace(el, h("span", { class: `editor-dot ${state}`, "aria-hidden": "true" }), h("span", { class: "status-text" }, text));
    this.el.start.disabled = state !== "valid";
    if (this.el.analyse) this.el.analyse.disabled = state !== "valid";
  }

  /** The analysis board at the position set up; "Return" comes back here with it. */
  analyse() {
    if (!this.checked?.valid) return;
    const { position } = this.checked;
    const query = new URLSearchParams({ options: JSON.stringify(this.options), position });
    openAnalysis({ game: this.entry.name, options: { ...this.options }, position,
      from: `/editor/${encodeURIComponent(this.entry.name)}?${query}` });
  }

  say(text) {
    this.el.selection.textContent = text;
  }

  draw() {
    this.mod.render(this.el.board, this.board, {
      legal: [], turn: this.board.to_move, seatNames: this.names,
      label: t("editor.board_label", { title: this.entry.title }),
      edit: { onSquare: (sq) => this.onSquare(sq), selected: this.selected },
    });
    const piece = this.selected && this.pieceAt(this.selected);
    for (const b of [this.el.ccw, this.el.cw, this.el.remove]) b.disabled = !piece;
    this.el.ccw.hidden = !!piece && (this.entryOf(piece)?.facings.length || 0) <= 2; // both ways give the same
    if (this.armed) {
      this.say(t("editor.place_armed", { piece: this.words(this.armed) }));
    } else if (piece) {
      this.say(t("editor.selected", { piece: this.words(piece), square: piece.square }));
    } else {
      this.say(t("editor.idle"));
    }
  }

  renderPalette() {
    replace(this.el.palette, this.names.map((n, colour) => h("div", { class: "palette-row" },
      h("span", { class: "palette-side" }, h("span", { class: "swatch", style: { "--c": seatColour(colour) } }), n),
      this.palette.pieces.filter((p) => p.colour === colour).map((entry) => {
        const left = this.left(entry);
        const armed = this.armed && this.armed.kind === entry.kind && this.armed.colour === colour;
        return h("button", {
          type: "button", class: "palette-piece", "data-testid": `palette-${colour}-${entry.kind}`, "data-left": left,
          "aria-pressed": String(!!armed), disabled: left <= 0,
          "aria-label": t("editor.palette_label", { side: n, piece: entry.label, left }),
          title: t("editor.palette_title", { side: n, piece: entry.label, left }),
          onclick: () => {
            this.armed = armed ? null : { kind: entry.kind, colour };
            this.selected = null;
            this.renderPalette();
            this.draw();
          },
        }, this.mod.pieceIcon?.(entry.kind, colour, entry.facing), h("small", {}, `×${left}`));
      }))));
  }

  // ---- dragging ------------------------------------------------------------------------------------------------

  pointerDown(event) {
    if (event.button !== 0 || !this.board) return;
    const square = event.target.closest?.(".sq")?.dataset.square;
    const piece = square && this.pieceAt(square);
    if (!piece || this.armed) return;
    this.drag = { from: square, x: event.clientX, y: event.clientY, moving: false, ghost: null, piece };
    document.addEventListener("pointermove", this.onPointerMove);
    document.addEventListener("pointerup", this.onPointerUp);
  }

  pointerMove(event) {
    const drag = this.drag;
    if (!drag) return;
    if (!drag.moving && Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < 6) return;
    if (!drag.moving) {
      drag.moving = true;
      drag.ghost = h("div", { class: "drag-ghost", "aria-hidden": "true" }, this.mod.pieceIcon?.(drag.piece.kind, drag.piece.colour, drag.piece.facing));
      document.body.append(drag.ghost);
      this.selected = drag.from;
      this.draw();
    }
    drag.ghost.style.left = `${event.clientX}px`;
    drag.ghost.style.top = `${event.clientY}px`;
  }

  pointerUp(event) {
    const drag = this.drag;
    this.drag = null;
    document.removeEventListener("pointermove", this.onPointerMove);
    document.removeEventListener("pointerup", this.onPointerUp);
    if (!drag || !drag.moving) return;
    drag.ghost?.remove();
    // the click that follows a drag is not a click on a square
    const swallow = (e) => { e.stopPropagation(); e.preventDefault(); };
    this.el.board.addEventListener("click", swallow, { capture: true, once: true });
    setTimeout(() => this.el.board.removeEventListener("click", swallow, { capture: true }), 0);
    const to = this.mod.squareAtPoint?.(this.el.board, event.clientX, event.clientY);
    if (to && to !== drag.from && !this.pieceAt(to)) this.moveTo(drag.from, to);
    else this.draw();
  }

  keydown(event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const tag = event.target?.tagName;
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
    if (event.key === "Escape" && (this.selected || this.armed)) {
      this.selected = null;
      this.armed = null;
      this.renderPalette();
      this.draw();
    } else if ((event.key === "Delete" || event.key === "Backspace") && this.selected) {
      this.removeSelected();
    } else if ((event.key === "[" || event.key === "]") && this.selected) {
      this.turn(event.key === "]" ? 1 : -1);
    } else {
      return;
    }
    event.preventDefault();
  }

  async copyPosition() {
    try {
      await navigator.clipboard.writeText(this.el.position.value);
    } catch {
      this.el.position.focus();
      this.el.position.select();
    }
  }

  async startGame() {
    if (!this.checked?.valid) return;
    this.el.start.disabled = true;
    this.el.startError.hidden = true;
    try {
      const seats = this.seatChoices.map((s) => (s.kind === "computer" ? { kind: "computer", level: s.level } : { kind: "human" }));
      await startGame(this.entry, { ...this.options }, seats, this.checked.position);
    } catch (err) {
      showError(err);
      this.el.startError.hidden = false;
      this.el.startError.textContent = err.message;
      this.el.start.disabled = false;
    }
  }
}

/** The server's reason a position is refused, as the editor says it (the page's language: the answer's code). */
function reason(err) {
  const message = String(err?.message || "");
  if (err?.status !== 422) return message;
  const body = err.body || {};
  if (body.code === "error.game.bad_start" && body.params?.reason !== undefined) {
    const why = body.params.reason;
    return t("editor.not_playable", { reason: typeof why === "string" ? why : said(why) });
  }
  return message.replace(/^bad start position for [^:]+: ([\s\S]*)$/,
    (_, why) => t("editor.not_playable", { reason: why }));
}
