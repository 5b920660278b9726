// What a player reads of an engine's score on the analysis board. The server says it in the game's units (its
// catalog entry's `scores`: a winning-chance scale, maybe a material-like unit); this module only words it: each
// line's score, the one sentence that says what the scores mean, and the chances the bar and the graph draw.

/** How the game's scores are read: "unit" (a material-like unit, e.g. a lead in pieces), "chance" (winning
 * chances) or "points" (the engine's own points: a game that declares no scale). */
export function scoreKind(entry) {
  if (!entry?.scores) return "points";
  return entry.scores.unit ? "unit" : "chance";
}

/** The sentence that says, once on the page, what the scores mean; `names` are the seats' names. */
export function scoresSentence(entry, names) {
  const two = names.length === 2;
  const ends = "“Wins in N”: a forced win N moves away (every side's moves counted).";
  switch (scoreKind(entry)) {
    case "unit":
      return two
        ? `Scores: ${names[0]}'s lead in ${entry.scores.unit} (below 0: ${names[1]} leads); the bar and the graph show the winning chances they mean. ${ends}`
        : `Scores: the lead of the side to move in ${entry.scores.unit}; the bar and the graph show its winning chance. ${ends}`;
    case "chance":
      return two
        ? `Scores: each side's chance to win, as the engine sees the position (the bar and the graph show ${names[0]}'s share). ${ends}`
        : `Scores: the winning chance of the colour to move against its strongest rival, as the engine sees it (it assumes every other colour plays against it). ${ends}`;
    default:
      return "Scores: the engine's evaluation for the side to move, in its own points.";
  }
}

/** A line's score in words: `reading` is a report of the server ({player, score, chances, value, ends_in}). */
export function scoreText(entry, reading, names) {
  const mover = reading.player;
  const two = names.length === 2;
  const name = (i) => names[i] || `Player ${i + 1}`;
  if (Number.isInteger(reading.ends_in) && reading.ends_in !== 0) {
    const moves = Math.abs(reading.ends_in);
    const winner = reading.ends_in > 0 ? mover : two ? 1 - mover : null;
    return winner === null ? `${name(mover)} loses in ${moves}` : `${name(winner)} wins in ${moves}`;
  }
  if (reading.value !== null && reading.value !== undefined) {
    const lead = two && mover === 1 ? -reading.value : reading.value;
    return `${two ? "" : `${name(mover)} `}${signed(lead)}`;
  }
  const chances = reading.chances || [];
  if (two && Number.isFinite(chances[0])) {
    const ahead = chances[0] >= 0.5 ? 0 : 1;
    return `${name(ahead)} ${percent(chances[ahead])}`;
  }
  if (Number.isFinite(chances[mover])) return `${name(mover)} ${percent(chances[mover])}`;
  return signed(Math.round(reading.score * 100) / 100);
}

/** The chance the bar and the graph draw for a reading: {seat, chance} — with two players always the first seat's,
 * with more the side to move's; null when the reading has none. */
export function drawnChance(reading, seats) {
  const chances = reading?.chances || [];
  if (seats === 2 && Number.isFinite(chances[0])) return { seat: 0, chance: chances[0] };
  const mover = reading?.player;
  if (Number.isInteger(mover) && mover >= 0 && Number.isFinite(chances[mover])) return { seat: mover, chance: chances[mover] };
  const known = chances.findIndex((c) => Number.isFinite(c) && c > 0);
  return known >= 0 ? { seat: known, chance: chances[known] } : null;
}

export function percent(chance) {
  return `${Math.round(chance * 100)}%`;
}

function signed(value) {
  const text = Math.abs(value).toFixed(2);
  return value > 0.004 ? `+${text}` : value < -0.004 ? `−${text}` : "0.00";
}
