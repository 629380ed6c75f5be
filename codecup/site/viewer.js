// Move-by-move viewer of one game page. The game's own script (../draw/GAME.js, shared by
// every page of that game) defines codecupDraw(frame, view) -> {svg, status}; the page holds
// the record's moves and one small frame per position. No server, no network: file:// works.
(function () {
  "use strict";
  const data = JSON.parse(document.getElementById("game-data").textContent);
  const board = document.getElementById("board");
  const status = document.getElementById("status");
  const label = document.getElementById("ply-label");
  const clocks = document.querySelectorAll("[data-clock-seat]");
  const moves = document.querySelectorAll("#moves li[data-ply]");
  const last = data.frames.length - 1;
  let ply = 0;

  function draw(k) {
    const view = {
      ply: k,
      last: last,
      moves: data.moves,
      movers: data.movers,
      seats: data.seats,
      shared: data.shared,
      end: k === last ? data.end : "",
    };
    try {
      return window.codecupDraw(data.frames[k], view);
    } catch (err) {
      return { svg: "", status: "cannot draw this position: " + err };
    }
  }

  function show(k) {
    ply = Math.max(0, Math.min(last, k));
    const drawn = draw(ply);
    board.innerHTML = drawn.svg;
    status.textContent = drawn.status;
    status.classList.toggle("fault", ply === last && data.end !== "");
    board.dataset.ply = String(ply);
    label.textContent = ply === 0 ? "start" : "after move " + ply + " of " + last + ": " + data.moves[ply - 1];
    // The drawing is a picture to a screen reader: named by the position it shows and its status.
    board.setAttribute("aria-label", "board, " + label.textContent + (drawn.status ? ". " + drawn.status : ""));
    clocks.forEach(function (el) {
      const seat = Number(el.dataset.clockSeat);
      el.textContent = data.clocks[ply][seat].toFixed(3) + "s";  // as the record's clocks are shown
    });
    moves.forEach(function (li) {
      const current = Number(li.dataset.ply) === ply;
      li.classList.toggle("current", current);
      if (current) li.firstElementChild.setAttribute("aria-current", "step");
      else li.firstElementChild.removeAttribute("aria-current");
      if (current && li.scrollIntoView) li.scrollIntoView({ block: "nearest" });
    });
    if (ply === 0 && moves.length) moves[0].parentNode.scrollTop = 0;  // the start: the list's top
  }

  const steps = { first: -Infinity, prev: -1, next: 1, last: Infinity };
  document.querySelectorAll("button[data-go]").forEach(function (button) {
    button.addEventListener("click", function () {
      const go = button.dataset.go;
      show(go === "first" ? 0 : go === "last" ? last : ply + steps[go]);
    });
  });
  // Each move a button, so the keyboard reaches it (Tab, Enter) and a screen reader names it one
  // (the list took clicks only: a red team's); made here, as only a script can show its position.
  moves.forEach(function (li) {
    const button = document.createElement("button");
    button.type = "button";
    button.append(...li.childNodes);
    li.append(button);
    li.addEventListener("click", function () { show(Number(li.dataset.ply)); });
  });
  document.addEventListener("keydown", function (event) {
    // A key with a modifier is the browser's (Alt+Left back, Ctrl+Home, Cmd+Left): taken, it
    // cancelled them (a red team's); so is one typed into a field or a button's own keys.
    if (event.altKey || event.ctrlKey || event.metaKey || event.defaultPrevented) return;
    const keys = { ArrowRight: ply + 1, ArrowLeft: ply - 1, Home: 0, End: last };
    if (event.key in keys) {
      event.preventDefault();
      show(keys[event.key]);
    }
  });
  show(0);
})();
