// What a player reads of an engine's score on the analysis board. The server says it in the game's units (its
// catalog entry's `scores`: a winning-chance scale, maybe a material-like unit); this module only words it: each
// line's score, the one sentence that says what the scores mean, and the chances the bar and the graph draw.
import { t } from "../../i18n.js";

/** How the game's scores are read: "unit" (a material-like unit, e.g. a lead in pieces), "chance" (winning
 * chances) or "points" (the engine's own points: a game that declares no scale). */
export function scoreKind(entry) {
  if (!entry?.scores) return "points";
  return entry.scores.unit ? "unit" : "chance";
}

/** The sentence that says, once on the page, what the scores mean; `names` are the seats' names. */
export function scoresSentence(entry, names) {
  const two = names.length === 2;
  const ends = t("analysis.scores.ends");
  switch (scoreKind(entry)) {
    case "unit":
      return two
        ? t("analysis.scores.unit_two", { first: names[0], second: names[1], unit: entry.scores.unit, ends })
        : t("analysis.scores.unit_many", { unit: entry.scores.unit, ends });
    case "chance":
      return two
        ? t("analysis.scores.chance_two", { first: names[0], ends })
        : t("analysis.scores.chance_many", { ends });
    default:
      return t("analysis.scores.points");
  }
}

/** A line's score in words: `reading` is a report of the server ({player, score, chances, value, ends_in}). */
export function scoreText(entry, reading, names) {
  const mover = reading.player;
  const two = names.length === 2;
  const name = (i) => playerName(names, i);
  if (Number.isInteger(reading.ends_in) && reading.ends_in !== 0) {
    const moves = Math.abs(reading.ends_in);
    const winner = reading.ends_in > 0 ? mover : two ? 1 - mover : null;
    return winner === null ? t("analysis.score.loses_in", { name: name(mover), moves })
      : t("analysis.score.wins_in", { name: name(winner), moves });
  }
  if (reading.value !== null && reading.value !== undefined) {
    const lead = two && mover === 1 ? -reading.value : reading.value;
    return two ? signed(lead) : t("analysis.score.named", { name: name(mover), score: signed(lead) });
  }
  const chances = reading.chances || [];
  if (two && Number.isFinite(chances[0])) {
    const ahead = chances[0] >= 0.5 ? 0 : 1;
    return t("analysis.score.named", { name: name(ahead), score: percent(chances[ahead]) });
  }
  if (Number.isFinite(chances[mover])) return t("analysis.score.named", { name: name(mover), score: percent(chances[mover]) });
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
  return t("analysis.percent", { value: Math.round(chance * 100) });
}

/** Seat `i`'s name, or "Player N" when it has none. */
export function playerName(names, i) {
  return names[i] || t("analysis.player", { n: i + 1 });
}

function signed(value) {
  const text = Math.abs(value).toFixed(2);
  return value > 0.004 ? `+${text}` : value < -0.004 ? `−${text}` : "0.00";
}
