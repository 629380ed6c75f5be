// Move-by-move viewer: every position is precomputed into the page, so this needs no server.
(function () {
  "use strict";
  const data = JSON.parse(document.getElementById("game-data").textContent);
  const board = document.getElementById("board");
  const label = document.getElementById("ply-label");
  const clocks = document.querySelectorAll("[data-clock-seat]");
  const moves = document.querySelectorAll("#moves li[data-ply]");
  const last = data.frames.length - 1;
  let ply = 0;

  function show(k) {
    ply = Math.max(0, Math.min(last, k));
    board.innerHTML = data.frames[ply];
    board.dataset.ply = String(ply);
    label.textContent = ply === 0 ? "start" : "after move " + ply + " of " + last + ": " + data.moves[ply - 1];
    clocks.forEach(function (el) {
      const seat = Number(el.dataset.clockSeat);
      el.textContent = data.clocks[ply][seat].toFixed(2) + "s";
    });
    moves.forEach(function (li) {
      const current = Number(li.dataset.ply) === ply;
      li.classList.toggle("current", current);
      if (current && li.scrollIntoView) li.scrollIntoView({ block: "nearest" });
    });
  }

  const actions = { first: 0, prev: -1, next: 1, last: Infinity };
  document.querySelectorAll("button[data-go]").forEach(function (button) {
    button.addEventListener("click", function () {
      const go = button.dataset.go;
      show(go === "first" ? 0 : go === "last" ? last : ply + actions[go]);
    });
  });
  moves.forEach(function (li) {
    li.addEventListener("click", function () { show(Number(li.dataset.ply)); });
  });
  document.addEventListener("keydown", function (event) {
    const keys = { ArrowRight: ply + 1, ArrowLeft: ply - 1, Home: 0, End: last };
    if (event.key in keys) {
      event.preventDefault();
      show(keys[event.key]);
    }
  });
  show(0);
})();
