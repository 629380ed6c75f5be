// Turn Right positions for the results site: the board as render.svg draws it, the last circuit
// as a red arrowed loop. frame: {p: 36 squares "WB." (square = file * 6 + rank), c: corners or
// null, st: phase and points, over: how it ended or "", tm: the seat to move or null}.
window.codecupDraw = function (frame, view) {
  "use strict";
  const SIZE = 6, CELL = 48, MARGIN = 28, FILES = "abcdef";
  const size = SIZE * CELL, width = size + 2 * MARGIN, height = size + 2 * MARGIN;
  const centre = function (square) {
    const file = Math.floor(square / SIZE), rank = square % SIZE;
    return [MARGIN + file * CELL + CELL / 2, MARGIN + (SIZE - 1 - rank) * CELL + CELL / 2];
  };
  const parts = [
    '<svg xmlns="http://www.w3.org/2000/svg" width="' + width + '" height="' + height + '" viewBox="0 0 ' +
      width + " " + height + '" font-family="sans-serif" font-size="12">',
    '<defs><marker id="tr-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" ' +
      'orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="#c0392b"/></marker></defs>',
    '<rect x="' + MARGIN + '" y="' + MARGIN + '" width="' + size + '" height="' + size + '" fill="#d9b77e" stroke="#5a4020"/>',
  ];
  for (let i = 1; i < SIZE; i++) {
    const p = MARGIN + i * CELL;
    parts.push('<line x1="' + p + '" y1="' + MARGIN + '" x2="' + p + '" y2="' + (MARGIN + size) + '" stroke="#5a4020"/>');
    parts.push('<line x1="' + MARGIN + '" y1="' + p + '" x2="' + (MARGIN + size) + '" y2="' + p + '" stroke="#5a4020"/>');
  }
  for (let i = 0; i < SIZE; i++) {
    parts.push('<text x="' + (MARGIN + i * CELL + CELL / 2) + '" y="' + (MARGIN + size + 16) + '" text-anchor="middle">' + FILES[i] + "</text>");
    parts.push('<text x="' + (MARGIN - 12) + '" y="' + (MARGIN + (SIZE - 1 - i) * CELL + CELL / 2 + 4) + '" text-anchor="middle">' + (i + 1) + "</text>");
  }
  for (let square = 0; square < SIZE * SIZE; square++) {
    const piece = frame.p[square];
    if (piece === ".") continue;
    const [x, y] = centre(square);
    const name = FILES[Math.floor(square / SIZE)] + ((square % SIZE) + 1);
    parts.push('<circle cx="' + x + '" cy="' + y + '" r="' + (CELL / 2 - 6) + '" fill="' + (piece === "W" ? "#ffffff" : "#202020") +
      '" stroke="#000"><title>' + name + "</title></circle>");
  }
  if (frame.c) {
    const n = frame.c.length;
    for (let i = 0; i < n; i++) {
      const [x1, y1] = centre(frame.c[i]), [x2, y2] = centre(frame.c[(i + 1) % n]);
      parts.push('<line x1="' + x1 + '" y1="' + y1 + '" x2="' + x2 + '" y2="' + y2 +
        '" stroke="#c0392b" stroke-width="3" marker-end="url(#tr-arrow)"/>');
    }
  }
  parts.push("</svg>");
  let status = frame.st;
  if (view.end) status += ". Game over: " + view.end;
  else if (frame.over) status += ". " + frame.over;
  else if (frame.tm) status += ", " + frame.tm + " to move";
  return { svg: parts.join(""), status: status };
};
