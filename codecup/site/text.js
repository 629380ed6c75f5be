// The drawing of a game without its own script: the plugin's text picture of each position.
// A frame is a list of indices into view.shared, the page's table of distinct lines.
window.codecupDraw = function (frame, view) {
  "use strict";
  const pre = document.createElement("pre");
  pre.className = "text-board";
  pre.textContent = frame.map(function (i) { return view.shared[i]; }).join("\n");
  return { svg: pre.outerHTML, status: view.end ? "Game over: " + view.end : "" };
};
