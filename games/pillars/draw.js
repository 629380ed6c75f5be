// Pillars positions for the results site: the board as render.render_svg draws it.
// frame: {b: 100 fields "#rb.", l: [top, left, bottom, right] of the last move or null,
//         st: status, tm: the seat to move or null, j: jokers used}.
window.codecupDraw = function (frame, view) {
  "use strict";
  const SIZE = 10, CELL = 36, MARGIN = 28;
  const ROWS = "ABCDEFGHIJ", COLS = "abcdefghij";
  const FILL = { ".": "#f4f1e8", "#": "#444444", r: "#d33b3b", b: "#3b62d3" };
  const KIND = { ".": "empty", "#": "pillar", r: "red", b: "blue" };
  const size = MARGIN + SIZE * CELL + 8;
  const parts = [
    '<svg xmlns="http://www.w3.org/2000/svg" width="' + size + '" height="' + size + '" viewBox="0 0 ' +
      size + " " + size + '" font-family="sans-serif" font-size="14">',
  ];
  for (let i = 0; i < SIZE; i++) {
    const centre = MARGIN + i * CELL + CELL / 2;
    parts.push('<text x="' + centre + '" y="' + (MARGIN - 8) + '" text-anchor="middle">' + COLS[i] + "</text>");
    parts.push('<text x="' + MARGIN / 2 + '" y="' + (centre + 5) + '" text-anchor="middle">' + ROWS[i] + "</text>");
  }
  for (let p = 0; p < SIZE * SIZE; p++) {
    const ch = frame.b[p];
    const x = MARGIN + (p % SIZE) * CELL, y = MARGIN + Math.floor(p / SIZE) * CELL;
    parts.push('<rect x="' + x + '" y="' + y + '" width="' + CELL + '" height="' + CELL + '" fill="' + FILL[ch] +
      '" stroke="#999999" class="' + KIND[ch] + '"/>');
    if (ch === "#") {
      parts.push('<circle cx="' + (x + CELL / 2) + '" cy="' + (y + CELL / 2) + '" r="' + CELL / 3 + '" fill="#bbbbbb"/>');
    } else if (ch === "b") {  // hatched, as render.blue_hatch: not told from Red by colour alone
      parts.push('<path d="M' + x + " " + (y + CELL) + "L" + (x + CELL) + " " + y + '" stroke="#c9d5f5" stroke-width="3"/>');
    }
  }
  if (frame.l) {
    const [top, left, bottom, right] = frame.l;
    const x = MARGIN + left * CELL, y = MARGIN + top * CELL;
    const w = (right - left + 1) * CELL, h = (bottom - top + 1) * CELL;
    parts.push('<rect x="' + (x + 2) + '" y="' + (y + 2) + '" width="' + (w - 4) + '" height="' + (h - 4) +
      '" fill="none" stroke="#ffd000" stroke-width="4" class="last"/>');
  }
  parts.push("</svg>");
  let status = frame.st;
  if (view.end) status += ". Game over: " + view.end;
  else if (frame.tm) status += ", " + frame.tm + " to move";
  if (frame.j) status += "; " + frame.j;
  return { svg: parts.join(""), status: status };
};
