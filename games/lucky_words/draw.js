// Lucky Words positions for the results site: both boards as render.render_svg draws them,
// row words boxed in blue, column words in red. frame: {b: [{c: 49 letters ".A-Z", t: total,
// r: rows, k: columns, each [points, start, length, start, length, ...]}] x2, s: letters, n: picked}.
window.codecupDraw = function (frame, view) {
  "use strict";
  const SIZE = 7, CELL = 36, PAD = 24, SEATS = ["first", "second"];
  const boardW = SIZE * CELL + 40;
  const width = 2 * boardW + 3 * PAD, height = SIZE * CELL + 70;
  const esc = function (t) {
    return String(t).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  };
  const parts = [
    '<svg xmlns="http://www.w3.org/2000/svg" width="' + width + '" height="' + height +
      '" viewBox="0 0 ' + width + ' ' + height + '" font-family="sans-serif" font-size="16">',
    '<rect width="' + width + '" height="' + height + '" fill="white"/>',
  ];
  frame.b.forEach(function (board, seat) {
    const x0 = PAD + seat * (boardW + PAD), y0 = 40;
    parts.push('<text x="' + x0 + '" y="24" font-weight="bold">' + SEATS[seat] + ": " + board.t + " point" +
      (board.t === 1 ? "" : "s") + "</text>");
    for (let p = 0; p < SIZE * SIZE; p++) {
      const x = x0 + (p % SIZE) * CELL, y = y0 + Math.floor(p / SIZE) * CELL;
      parts.push('<rect x="' + x + '" y="' + y + '" width="' + CELL + '" height="' + CELL + '" fill="' +
        (p === 24 ? "#fff8dc" : "#f4f4f4") + '" stroke="#999"/>');
      const ch = board.c[p];
      if (ch !== ".") {
        parts.push('<text x="' + (x + CELL / 2) + '" y="' + (y + CELL / 2 + 6) + '" text-anchor="middle">' + esc(ch) + "</text>");
      }
    }
    board.r.forEach(function (line, r) {
      for (let i = 1; i < line.length; i += 2) {
        parts.push('<rect x="' + (x0 + line[i] * CELL + 3) + '" y="' + (y0 + r * CELL + 3) + '" width="' +
          (line[i + 1] * CELL - 6) + '" height="' + (CELL - 6) + '" rx="8" fill="none" stroke="#1f5fbf" stroke-width="2"/>');
      }
      parts.push('<text x="' + (x0 + SIZE * CELL + 8) + '" y="' + (y0 + r * CELL + CELL / 2 + 6) + '" fill="#1f5fbf">' + line[0] + "</text>");
    });
    board.k.forEach(function (line, c) {
      for (let i = 1; i < line.length; i += 2) {
        parts.push('<rect x="' + (x0 + c * CELL + 6) + '" y="' + (y0 + line[i] * CELL + 6) + '" width="' + (CELL - 12) +
          '" height="' + (line[i + 1] * CELL - 12) + '" rx="8" fill="none" stroke="#bf1f1f" stroke-width="2"/>');
      }
      parts.push('<text x="' + (x0 + c * CELL + CELL / 2) + '" y="' + (y0 + SIZE * CELL + 20) +
        '" text-anchor="middle" fill="#bf1f1f">' + line[0] + "</text>");
    });
  });
  parts.push("</svg>");
  let status = "letters: " + frame.s + " (" + frame.n + " of 48 picked)";
  if (view.end) status += ". Game over: " + view.end;
  else if (view.ply < view.last) status += ", " + view.movers[view.ply] + " to move";
  else if (frame.n === 48) status += ". Game over";
  return { svg: parts.join(""), status: status };
};
