// Spaghetti positions for the results site: tiles as arcs and lines, walls in the players'
// colours, segments coloured as the CodeCup 2022 visualiser did (black open, grey touching the
// top or bottom wall, light when closing cost the mover points, blue/red where a path scored).
// frame: {t: 63 cells "lsr.", c: 126 segment colours "kgbrBR.", l: last cell or -1,
//         s: [Blue, Red] scores, tm: the seat to move or null, p: player moves so far}.
window.codecupDraw = function (frame, view) {
  "use strict";
  const ROWS = 9, COLS = 7, S = 40, M = 24, H = S / 2;
  const COLOUR = { k: "#222", g: "#aaa", b: "#1f5fd6", r: "#d62f1f", B: "#a9c4f5", R: "#f4a6a6" };
  const width = COLS * S + 2 * M, height = ROWS * S + 2 * M;
  const bw = COLS * S, bh = ROWS * S;
  const parts = [
    '<svg xmlns="http://www.w3.org/2000/svg" width="' + width + '" height="' + height + '" viewBox="0 0 ' +
      width + " " + height + '" font-family="sans-serif" font-size="12">',
    '<rect width="' + width + '" height="' + height + '" fill="white"/>',
    '<line x1="' + M + '" y1="' + M + '" x2="' + M + '" y2="' + (M + bh) + '" stroke="#1f5fd6" stroke-width="5"/>',
    '<line x1="' + (M + bw) + '" y1="' + M + '" x2="' + (M + bw) + '" y2="' + (M + bh) + '" stroke="#d62f1f" stroke-width="5"/>',
  ];
  [M, M + bh].forEach(function (y) {
    parts.push('<line x1="' + M + '" y1="' + y + '" x2="' + (M + bw) + '" y2="' + y + '" stroke="#888" stroke-width="3"/>');
  });
  for (let i = 0; i < COLS; i++) parts.push('<text x="' + (M + i * S + H - 3) + '" y="' + (M - 8) + '">' + "abcdefg"[i] + "</text>");
  for (let i = 0; i < ROWS; i++) parts.push('<text x="6" y="' + (M + i * S + H + 4) + '">' + "abcdefghi"[i] + "</text>");
  parts.push('<g stroke-width="4" stroke-linecap="round">');
  function segment(x, y, tile, half, colour) {
    if (tile === "s") {
      if (half === 0) return '<line x1="' + (x + H) + '" y1="' + y + '" x2="' + (x + H) + '" y2="' + (y + S) + '" stroke="' + colour + '"/>';
      return '<line x1="' + x + '" y1="' + (y + H) + '" x2="' + (x + S) + '" y2="' + (y + H) + '" stroke="' + colour + '"/>';
    }
    let a, b;
    if (tile === "l") {
      [a, b] = half === 0 ? [[x + H, y], [x, y + H]] : [[x + H, y + S], [x + S, y + H]];
    } else {
      [a, b] = half === 0 ? [[x + H, y], [x + S, y + H]] : [[x + H, y + S], [x, y + H]];
    }
    return '<path d="M ' + a[0] + " " + a[1] + " A " + H + " " + H + " 0 0 " + (tile === "l" ? 1 : 0) + " " + b[0] +
      " " + b[1] + '" fill="none" stroke="' + colour + '"/>';
  }
  for (let cell = 0; cell < ROWS * COLS; cell++) {
    const x = M + (cell % COLS) * S, y = M + Math.floor(cell / COLS) * S;
    parts.push('<rect x="' + x + '" y="' + y + '" width="' + S + '" height="' + S + '" fill="' +
      (cell === frame.l ? "#fff3a0" : "none") + '" stroke="#ddd" stroke-width="1"/>');
    const tile = frame.t[cell];
    if (tile === ".") continue;
    for (let half = 0; half < 2; half++) {
      parts.push(segment(x, y, tile, half, COLOUR[frame.c[2 * cell + half]] || "#222"));
    }
  }
  parts.push("</g></svg>");
  let status = "Blue " + frame.s[0] + " - Red " + frame.s[1];
  if (view.end) status += ". Game over: " + view.end;
  else if (frame.tm) status += ", " + frame.tm + " to move (" + (frame.p + 1) + "/61)";
  else status += ". Game over";
  return { svg: parts.join(""), status: status };
};
