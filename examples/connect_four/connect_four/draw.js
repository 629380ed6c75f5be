// Connect Four positions for the results site, drawn as Board.render_svg draws them.
// frame: {b: 42 cells "ry." top row first (upper case: the last stone), st: status}.
window.codecupDraw = function (frame, view) {
  "use strict";
  const WIDTH = 7, HEIGHT = 6, CELL = 40, COLUMNS = "abcdefg";
  const FILL = { ".": "#ffffff", r: "#d33b3b", y: "#f2c500" };
  const w = WIDTH * CELL, h = HEIGHT * CELL;
  const parts = ['<svg xmlns="http://www.w3.org/2000/svg" width="' + w + '" height="' + (h + 24) +
    '" viewBox="0 0 ' + w + ' ' + (h + 24) + '" font-family="sans-serif"><rect width="' + w + '" height="' + h + '" fill="#2a5db0"/>'];
  for (let c = 0; c < WIDTH; c++) {
    const x = c * CELL + CELL / 2;
    parts.push('<text x="' + x + '" y="' + (h + 18) + '" text-anchor="middle">' + COLUMNS[c] + "</text>");
    for (let r = 0; r < HEIGHT; r++) {
      const mark = frame.b[r * WIDTH + c];
      const ring = mark !== mark.toLowerCase() ? ' stroke="#222222" stroke-width="3"' : "";
      parts.push('<circle cx="' + x + '" cy="' + (r * CELL + CELL / 2) + '" r="' + CELL * 0.4 + '" fill="' +
        FILL[mark.toLowerCase()] + '"' + ring + "/>");
    }
  }
  parts.push("</svg>");
  // The status shows how a faulted game ended rather than whose move it was.
  const status = view.end ? frame.st.split(":")[0] + ": game over, " + view.end : frame.st;
  return { svg: parts.join(""), status: status };
};
