// #/editor/<game>[?options=JSON] : a position editor for games whose board module has one (Khet): start from a
// setup, move pieces (click a piece then a square, or drag it), turn them, remove them or add them from a palette
// within the counts a side has, choose the side to move, see the position string, and start a game from it.
// The server checks every position (POST /api/positions): the rules are not written again here.
import { h, icon, replace } from "../dom.js";
import { api } from "../api.js";
import { boardModule } from "../games/index.js";
import { showError } from "../messages.js";
import { seatColour } from "../players.js";
import { startGame, defaultLevel, optionDefaults, levelsOf } from "../session.js";
import { optionField, seatRow, labelOf, loadEntry } from "./newgame.js";

const CHECK_DELAY_MS = 150;
const FACINGS = "NESW";

export async function mount(root, { params, query }) {
  const page = h("div", { class: `page editor-page game-${params.game}` });
  root.append(page);
  const entry = await loadEntry(page, params.game);
  if (!entry) return undefined;
  const mod = boardModule(entry.name);
  if (!mod.hasEditor) {
    page.append(h("div", { class: "panel empty-state" },
      h("h1", {}, `${entry.title} has no position editor`),
      h("p", {}, "Start a game from its usual setups instead."),
      h("a", { class: "btn primary", href: `#/new/${encodeURIComponent(entry.name)}` }, "New game")));
    return undefined;
  }
  document.title = `Set up a position: ${entry.title} · damier`;
  const editor = new Editor(page, entry, mod, initialOptions(entry, query));
  editor.build();
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
    this.options = options;
    this.names = mod.seatNames(options);
    this.pieces = [];
    this.toMove = 0;
    this.quiet = 0; // the quiet plies of the position (a pasted position keeps its count)
    this.selected = null; // square of the piece picked up
    this.armed = null; // {kind, colour} from the palette, placed by the next click on an empty square
    this.checked = null; // the server's answer for the position shown: {position, ok, text}
    this.checkTimer = null;
    this.checkSeq = 0;
    this.drag = null;
    this.seatChoices = [{ kind: "human", level: defaultLevel(entry) }, { kind: "computer", level: defaultLevel(entry) }];
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

  build() {
    const el = {};
    const mod = this.mod;
    el.status = h("div", { class: "status editor-status", "data-testid": "editor-status", "aria-live": "polite" });
    el.board = h("div", { class: "board-wrap", "data-testid": "board" });
    el.board.addEventListener("pointerdown", (e) => this.pointerDown(e));
    el.selection = h("span", { class: "khet-info", "data-testid": "editor-selection" });
    el.ccw = h("button", { type: "button", class: "btn small", "data-testid": "editor-rotate-ccw", title: "Turn anticlockwise ([)", onclick: () => this.turn(-1) },
      turnIcon(-1), "Turn anticlockwise");
    el.cw = h("button", { type: "button", class: "btn small", "data-testid": "editor-rotate-cw", title: "Turn clockwise (])", onclick: () => this.turn(1) },
      turnIcon(1), "Turn clockwise");
    el.remove = h("button", { type: "button", class: "btn small", "data-testid": "editor-remove", title: "Take the piece off the board (Delete)", onclick: () => this.removeSelected() },
      icon("x"), "Remove");
    el.selectionBar = h("div", { class: "khet-bar" }, h("div", { class: "khet-bar-row" }, el.selection, h("span", { class: "khet-turns" }, el.ccw, el.cw, el.remove)));
    el.starts = h("div", { class: "presets", role: "group", "aria-label": "Start from" },
      Object.keys(mod.SETUPS).map((id) => h("button", {
        type: "button", class: "chip", "data-testid": `editor-start-${id}`, onclick: () => this.load(mod.SETUPS[id]),
      }, labelOf(id))),
      h("button", { type: "button", class: "chip", "data-testid": "editor-clear", title: "Keep only the Sphinxes and the Pharaohs", onclick: () => this.clear() }, "Clear"));
    el.palette = h("div", { class: "palette", role: "group", "aria-label": "Add a piece" });
    el.side = h("select", { id: "editor-side", "data-testid": "editor-side", "aria-label": "Side to move" },
      this.names.map((n, i) => h("option", { value: String(i) }, `${n} to move`)));
    el.side.addEventListener("change", () => { this.toMove = Number(el.side.value); this.changed(); });
    el.quiet = h("input", {
      id: "editor-quiet", type: "number", min: 0, step: 1, inputmode: "numeric", "data-testid": "editor-quiet",
      title: "Plies played since a piece was last removed (the quiet-ply limit counts on from here)",
    });
    el.quiet.addEventListener("input", () => {
      const n = Number(el.quiet.value);
      if (el.quiet.value === "" || !Number.isInteger(n) || n < 0) return; // half typed: wait
      this.quiet = n;
      this.changed();
    });
    el.quiet.addEventListener("change", () => { el.quiet.value = String(this.quiet); });
    el.position = h("textarea", { id: "editor-position", rows: 3, spellcheck: "false", "data-testid": "editor-position", "aria-label": "Position string" });
    el.load = h("button", { type: "button", class: "btn small", "data-testid": "editor-load", onclick: () => this.loadText() }, "Load this position");
    el.copy = h("button", { type: "button", class: "btn small ghost", "data-testid": "editor-copy", onclick: () => this.copyPosition() }, icon("copy"), "Copy");
    el.optionInputs = {};
    el.options = (this.entry.options || []).filter((o) => o.name !== "setup")
      .map((opt) => optionField(opt, this.options, el.optionInputs, () => this.changed()));
    el.seats = h("div", { class: "seat-rows" },
      this.names.map((n, i) => seatRow(i, n, this.seatChoices[i], levelsOf(this.entry))));
    el.start = h("button", { type: "button", class: "btn primary big", "data-testid": "editor-start", onclick: () => this.startGame() }, "Start game");
    el.startError = h("p", { class: "form-error", role: "alert", hidden: true });
    this.el = el;
    for (const [opt, input] of Object.entries(el.optionInputs)) {
      if (input.type === "checkbox") input.checked = !!this.options[opt];
      else input.value = String(this.options[opt]);
    }
    replace(this.page,
      h("a", { class: "back", href: `#/new/${encodeURIComponent(this.entry.name)}` }, icon("prev"), "New game"),
      h("h1", {}, `Set up a position: ${this.entry.title}`),
      h("p", { class: "lead" }, "Click a piece, then a square to move it (or drag it); turn or remove it with the buttons. "
        + "Add pieces from the palette. The server checks the position as you go."),
      h("div", { class: "game-layout" },
        h("section", { class: "board-col", "aria-label": "Board" }, el.status, el.board, el.selectionBar,
          h("section", { class: "panel", "aria-labelledby": "ed-play" }, h("h2", { id: "ed-play" }, "Play it"),
            h("div", { class: "option-fields" }, el.options),
            el.seats, el.startError, h("div", { class: "form-actions" }, el.start))),
        h("aside", { class: "side-col" },
          h("section", { class: "panel", "aria-labelledby": "ed-start" }, h("h2", { id: "ed-start" }, "Start from"), el.starts),
          h("section", { class: "panel", "aria-labelledby": "ed-palette" }, h("h2", { id: "ed-palette" }, "Add a piece"), el.palette),
          h("section", { class: "panel", "aria-labelledby": "ed-position" }, h("h2", { id: "ed-position" }, "Position"),
            h("div", { class: "field" }, el.side),
            h("div", { class: "field" }, h("label", { for: "editor-quiet" }, "Quiet plies so far"), el.quiet),
            h("div", { class: "field" }, el.position),
            h("div", { class: "more-actions" }, el.load, el.copy)))));
    document.addEventListener("keydown", this.onKey);
    this.load(this.mod.SETUPS[this.options.setup] || Object.values(this.mod.SETUPS)[0]);
  }

  // ---- editing -----------------------------------------------------------------------------------------------------

  load(position) {
    const board = this.mod.boardFromPosition(position);
    if (!board) return false;
    this.pieces = board.pieces.map((p) => ({ ...p }));
    this.toMove = board.to_move === 1 ? 1 : 0;
    this.quiet = board.quiet;
    this.selected = null;
    this.armed = null;
    this.changed();
    return true;
  }

  loadText() {
    const text = this.el.position.value.trim();
    if (!this.load(text)) {
      // not even the shape of a position: the server says what is wrong with it
      this.check(text, true);
    }
  }

  clear() {
    this.pieces = this.pieces.filter((p) => p.kind === "sphinx" || p.kind === "pharaoh");
    this.selected = null;
    this.changed();
  }

  pieceAt(square) {
    return this.pieces.find((p) => p.square === square) || null;
  }

  onSquare(square) {
    const piece = this.pieceAt(square);
    if (this.armed) {
      if (piece) {
        this.say(`${square} is taken: choose an empty square for the ${this.mod.KIND_LABELS[this.armed.kind]}.`);
        return;
      }
      this.pieces.push({ square, kind: this.armed.kind, colour: this.armed.colour, facing: this.armed.colour === 0 ? "N" : (this.armed.kind === "scarab" ? "N" : "S") });
      if (this.left(this.armed.kind, this.armed.colour) <= 0) this.armed = null;
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

  turn(step) {
    const piece = this.selected && this.pieceAt(this.selected);
    if (!piece) return;
    if (piece.kind === "scarab") {
      piece.facing = piece.facing === "N" ? "E" : "N"; // a Scarab is only its mirror: \ or /
    } else {
      piece.facing = FACINGS[(FACINGS.indexOf(piece.facing) + (step > 0 ? 1 : 3)) % 4];
    }
    this.changed();
  }

  removeSelected() {
    if (!this.selected) return;
    this.pieces = this.pieces.filter((p) => p.square !== this.selected);
    this.selected = null;
    this.changed();
  }

  left(kind, colour) {
    return this.mod.PIECE_LIMITS[kind] - this.pieces.filter((p) => p.kind === kind && p.colour === colour).length;
  }

  position() {
    return this.mod.formatPosition(this.pieces, this.toMove, this.quiet);
  }

  changed() {
    this.el.position.value = this.position();
    this.el.side.value = String(this.toMove);
    if (document.activeElement !== this.el.quiet) this.el.quiet.value = String(this.quiet);
    this.draw();
    this.renderPalette();
    clearTimeout(this.checkTimer);
    const position = this.position();
    this.setStatus("checking", "Checking the position…");
    this.checkTimer = setTimeout(() => this.check(position), CHECK_DELAY_MS);
  }

  async check(position, fromText = false) {
    const seq = ++this.checkSeq;
    const options = { ...this.options };
    let answer = null;
    let error = null;
    try {
      answer = await api.position(this.entry.name, options, position);
    } catch (err) {
      error = err;
    }
    if (seq !== this.checkSeq) return; // a newer position is being checked
    if (answer) {
      this.checked = { position, ok: true };
      const mover = this.names[answer.player] || "";
      this.setStatus("valid", `A legal position: ${mover} to move, ${answer.legal_moves} legal moves.`);
      if (fromText) this.load(answer.position);
    } else {
      this.checked = { position, ok: false };
      this.setStatus("invalid", error.status === 422 ? error.message.replace(/^bad start position for [^:]+: /, "Not a position to play from: ") : error.message);
    }
  }

  setStatus(state, text) {
    const el = this.el.status;
    el.dataset.valid = state === "valid" ? "true" : state === "invalid" ? "false" : "checking";
    replace(el, h("span", { class: `editor-dot ${state}`, "aria-hidden": "true" }), h("span", { class: "status-text" }, text));
    this.el.start.disabled = state !== "valid";
  }

  say(text) {
    this.el.selection.textContent = text;
  }

  draw() {
    const board = this.mod.boardFromPosition(this.position());
    this.mod.render(this.el.board, board, {
      legal: [], turn: this.toMove, seatNames: this.names, label: `${this.entry.title} position being set up`,
      edit: { onSquare: (sq) => this.onSquare(sq), selected: this.selected },
    });
    const piece = this.selected && this.pieceAt(this.selected);
    for (const b of [this.el.ccw, this.el.cw, this.el.remove]) b.disabled = !piece;
    this.el.ccw.hidden = !!piece && piece.kind === "scarab";
    if (this.armed) {
      this.say(`Click an empty square for the ${this.names[this.armed.colour]} ${this.mod.KIND_LABELS[this.armed.kind]} (Esc to stop).`);
    } else if (piece) {
      this.say(`${this.names[piece.colour]} ${this.mod.KIND_LABELS[piece.kind]} on ${piece.square}: click a square to move it, or turn it.`);
    } else {
      this.say("Click or drag a piece to move it.");
    }
  }

  renderPalette() {
    const mod = this.mod;
    replace(this.el.palette, this.names.map((n, colour) => h("div", { class: "palette-row" },
      h("span", { class: "palette-side" }, h("span", { class: "swatch", style: { "--c": seatColour(colour) } }), n),
      mod.KINDS.map((kind) => {
        const left = this.left(kind, colour);
        const armed = this.armed && this.armed.kind === kind && this.armed.colour === colour;
        return h("button", {
          type: "button", class: "palette-piece", "data-testid": `palette-${colour}-${kind}`, "data-left": left,
          "aria-pressed": String(!!armed), disabled: left <= 0,
          "aria-label": `Add a ${n} ${mod.KIND_LABELS[kind]} (${left} left)`, title: `${n} ${mod.KIND_LABELS[kind]}: ${left} left`,
          onclick: () => {
            this.armed = armed ? null : { kind, colour };
            this.selected = null;
            this.renderPalette();
            this.draw();
          },
        }, mod.pieceIcon(kind, colour, colour === 0 ? "N" : "S"), h("small", {}, `×${left}`));
      }))));
  }

  // ---- dragging ------------------------------------------------------------------------------------------------

  pointerDown(event) {
    if (event.button !== 0) return;
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
      drag.ghost = h("div", { class: "drag-ghost", "aria-hidden": "true" }, this.mod.pieceIcon(drag.piece.kind, drag.piece.colour, drag.piece.facing));
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
    const to = this.mod.squareAtPoint(this.el.board, event.clientX, event.clientY);
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
      event.preventDefault();
      this.removeSelected();
    } else if ((event.key === "[" || event.key === "]") && this.selected) {
      event.preventDefault();
      this.turn(event.key === "]" ? 1 : -1);
    } else {
      return;
    }
    event.preventDefault();
  }

  async copyPosition() {
    try {
      await navigator.clipboard.writeText(this.position());
    } catch {
      this.el.position.focus();
      this.el.position.select();
    }
  }

  async startGame() {
    const position = this.position();
    this.el.start.disabled = true;
    this.el.startError.hidden = true;
    try {
      const seats = this.seatChoices.map((s) => (s.kind === "computer" ? { kind: "computer", level: s.level } : { kind: "human" }));
      await startGame(this.entry, { ...this.options }, seats, position);
    } catch (err) {
      showError(err);
      this.el.startError.hidden = false;
      this.el.startError.textContent = err.message;
      this.el.start.disabled = false;
    }
  }
}

function turnIcon(step) {
  return icon(step > 0 ? "turn-cw" : "turn-ccw");
}
