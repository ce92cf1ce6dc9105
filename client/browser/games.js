// The four games as the lobby offers them: titles, seats, and the room options a player may pick.

export const GAMES = {
  creature_wars: {
    title: "Creature Wars", seats: 2, computer: true,
    options: [
      { key: "hp", label: "HP", choices: [10, 20, 30, 50], standard: 30 },
      { key: "hand_size", label: "Hand", choices: [3, 5, 7], standard: 5 },
      { key: "witches", label: "Witches", choices: [0, 5, 10, 20], standard: 10 },
    ],
  },
  fairy_meat: {
    title: "Fairy Meat", seats: 2, computer: true,
    options: [
      { key: "band", label: "Fairies a side", choices: [1, 2, 3], standard: 1 },
      { key: "best_of", label: "Best of", choices: [1, 3, 5], standard: 1 },
    ],
  },
  fairy_tableau: {
    title: "Fairy Tableau", seats: 1, computer: false,
    options: [
      { key: "fairies", label: "Fairies", choices: [0, 1, 2, 3], standard: 1 },
      { key: "fizzle", label: "Failed spells", choices: ["pay", "free"], standard: "pay" },
    ],
  },
  queens_challenge: { title: "Queen's Challenge", seats: 1, computer: false, options: [] },
};

export const CLOCKS = [
  { id: "standard", label: "30 s + 1:00", clock: undefined },
  { id: "fast", label: "10 s + 0:30", clock: { move: 10, bank: 30, increment: 0 } },
  { id: "slow", label: "1:00 + 5:00", clock: { move: 60, bank: 300, increment: 0 } },
  { id: "untimed", label: "untimed", clock: { move: 0, bank: 0, increment: 0 } },
];

export function title(game) {
  return (GAMES[game] || {}).title || game;
}
