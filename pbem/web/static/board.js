// Niceties over the page's forms, which work without this script: a place with moves is
// highlighted on the board and clicking it plays its move (or, with several, shows them);
// arrow keys step the replay.
(function () {
  "use strict";
  function places() {
    document.querySelectorAll("[data-place-moves]").forEach(function (group) {
      var place = group.getAttribute("data-place-moves");
      var shape = document.querySelector('svg.board [data-place="' + place + '"]');
      if (!shape) return;
      var buttons = group.querySelectorAll("button");
      // An image holds no controls: with places to click, the map is a group of them.
      var board = shape.closest("svg.board");
      if (board) board.setAttribute("role", "group");
      shape.classList.add("playable");
      shape.setAttribute("tabindex", "0");
      shape.setAttribute("role", "button");
      function choose() {
        if (buttons.length === 1) {
          buttons[0].click();
          return;
        }
        document.querySelectorAll(".place-moves.chosen").forEach(function (g) {
          g.classList.remove("chosen");
        });
        group.classList.add("chosen");
        group.scrollIntoView({ block: "nearest" });
        buttons[0].focus();
      }
      shape.addEventListener("click", choose);
      shape.addEventListener("keydown", function (event) {
        if (event.key === "Enter" || event.key === " ") {
          event.preventDefault();
          choose();
        }
      });
    });
  }
  function deadlines() {
    // Deadlines and when words were said to the table, in the reader's own time zone (the
    // page says UTC without this script), in the page's language rather than the browser's.
    var language = document.documentElement.lang || undefined;
    document.querySelectorAll("time[data-deadline], time[data-local]").forEach(function (time) {
      var moment = new Date(time.getAttribute("data-deadline") || time.getAttribute("data-local"));
      if (isNaN(moment)) return;
      time.textContent = moment.toLocaleString(language, {
        weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit",
        timeZoneName: "short"
      });
    });
  }
  function sources() {
    // A card that moves caballeros: click the place they leave to open its short list.
    document.querySelectorAll("[data-shift-from]").forEach(function (group) {
      var place = group.getAttribute("data-shift-from");
      var shape = document.querySelector('svg.board [data-place="' + place + '"]');
      if (!shape || shape.classList.contains("playable")) return;
      var board = shape.closest("svg.board");
      if (board) board.setAttribute("role", "group");
      shape.classList.add("playable");
      shape.setAttribute("tabindex", "0");
      shape.setAttribute("role", "button");
      // Named by what it shows (axe: a label must hold the visible text), described by
      // its list's summary ("From Aragon (8)").
      var summary = group.querySelector("summary");
      if (!summary.id) summary.id = "shift-from-" + place;
      shape.setAttribute("aria-describedby", summary.id);
      function open() {
        document.querySelectorAll("details.shift-from[open]").forEach(function (d) {
          if (d !== group) d.open = false;
        });
        group.open = true;
        group.scrollIntoView({ block: "nearest" });
        var first = group.querySelector("button");
        if (first) first.focus();
      }
      shape.addEventListener("click", open);
      shape.addEventListener("keydown", function (event) {
        if (event.key === "Enter" || event.key === " ") {
          event.preventDefault();
          open();
        }
      });
    });
  }
  function zoom() {
    // On a phone the whole map shows; "Zoom in" draws it at a readable scale, centred on
    // the first place to play (else the King), and "Whole map" goes back.
    var bar = document.querySelector(".board-zoom");
    var wrap = document.querySelector(".board-wrap");
    if (!bar || !wrap || bar.childElementCount) return;
    function button(label, zoomed) {
      var b = document.createElement("button");
      b.type = "button";
      b.textContent = label;
      b.setAttribute("aria-pressed", "false");
      b.addEventListener("click", function () { set(zoomed); });
      bar.appendChild(b);
      return b;
    }
    var closer = button(bar.getAttribute("data-zoom-in"), true);
    var whole = button(bar.getAttribute("data-zoom-out"), false);
    function set(zoomed) {
      wrap.classList.toggle("zoomed", zoomed);
      // Zoomed, the map's box scrolls: it takes the focus, so arrow keys scroll it too.
      if (zoomed) wrap.setAttribute("tabindex", "0");
      else wrap.removeAttribute("tabindex");
      closer.setAttribute("aria-pressed", String(zoomed));
      whole.setAttribute("aria-pressed", String(!zoomed));
      if (!zoomed) return;
      var target = wrap.querySelector("svg.board .playable") || wrap.querySelector("svg.board .king");
      if (!target) return;
      var box = target.getBoundingClientRect(), frame = wrap.getBoundingClientRect();
      wrap.scrollLeft += box.left + box.width / 2 - frame.left - wrap.clientWidth / 2;
      wrap.scrollTop += box.top + box.height / 2 - frame.top - wrap.clientHeight / 2;
    }
    whole.setAttribute("aria-pressed", "true");
  }
  function init() {
    places();
    sources();
    deadlines();
    zoom();
    document.addEventListener("pbem:page-updated", sources);
    document.addEventListener("pbem:page-updated", places);
    document.addEventListener("pbem:page-updated", deadlines);
    document.addEventListener("pbem:page-updated", zoom);
    document.addEventListener("pbem:talk-updated", deadlines);
    var keys = { ArrowLeft: "previous-move", ArrowRight: "next-move", Home: "start", End: "now",
                 PageUp: "previous-round", PageDown: "next-round" };
    document.addEventListener("keydown", function (event) {
      var target = event.target;
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      if (target && /^(INPUT|TEXTAREA|SELECT|BUTTON)$/.test(target.tagName)) return;
      var step = keys[event.key] && document.querySelector('a.step[data-step="' + keys[event.key] + '"]');
      if (step) {
        event.preventDefault();
        window.location.href = step.href;
      }
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();

// The table's side (the words being written to the table, the notes) carried from this page
// into `fresh`, a page fetched to replace it, so nothing being written is lost; returns a
// function that, once the fresh page is in, puts the writer's focus and selection back
// (true) or does nothing (false: the reader was not writing there).
function keepTheTableSide(fresh) {
  "use strict";
  var side = document.querySelector("div.table-side");
  var freshSide = fresh.querySelector("div.table-side");
  var active = document.activeElement;
  var writing = side && side.contains(active) && typeof active.selectionStart === "number";
  var range = writing ? [active.selectionStart, active.selectionEnd] : null;
  if (side && freshSide) freshSide.replaceWith(side);
  return function () {
    if (!range) return false;
    active.focus();
    active.setSelectionRange(range[0], range[1]);
    return true;
  };
}

// Following the game: a page showing the game as it is now asks the server every few
// seconds whether it moved (`data-poll`: the seq and status, and for a seat the last word to
// the table, with an ETag, so a poll while nothing moved is a 304), and when it did, fetches
// the page again and shows it in place, saying what happened in the live region; when only
// words came, just the list of words is swapped. A page that looks back (replay) stays put.
(function () {
  "use strict";
  function nav() { return document.querySelector("nav.replay"); }
  // How often: the server's setting (PBEM_PAGE_POLL_SECONDS), 4 s unless it says.
  var EVERY_MS = (nav() && parseInt(nav().getAttribute("data-every"), 10)) || 4000;
  var etag = null;
  function following() {
    var n = nav();
    return n && n.getAttribute("data-poll") && n.getAttribute("data-shown") === n.getAttribute("data-last");
  }
  function said(before) {
    // The log's entries after the move the page showed, as "Name: move" lines.
    var lines = [];
    document.querySelectorAll("aside.log li[data-seq]").forEach(function (li) {
      if (parseInt(li.getAttribute("data-seq"), 10) > before) {
        lines.push(li.getAttribute("data-name") + ": " + li.querySelector(".text").textContent.trim());
      }
    });
    return lines;
  }
  function talkSaid(after) {
    // The words to the table after the one numbered `after`, as "Name: words" lines, the
    // name and the words each in an isolate (U+2068 ... U+2069): a line's U+202E turns
    // nothing around it in the one sentence they are joined into.
    var lines = [];
    document.querySelectorAll("ol.talk li[data-message]").forEach(function (li) {
      if (parseInt(li.getAttribute("data-message"), 10) > after) {
        lines.push("\u2068" + li.getAttribute("data-name") + "\u2069: \u2068" +
          li.querySelector(".words").textContent + "\u2069");
      }
    });
    return lines;
  }
  function lastTalk() {
    var list = document.querySelector("ol.talk");
    return list ? parseInt(list.getAttribute("data-last"), 10) : 0;
  }
  function swapTalk(fresh) {
    // The list of words alone: what the reader is writing (or their notes) stays as it is.
    var old = document.querySelector("ol.talk");
    var now = fresh.querySelector("ol.talk");
    if (old && now) old.replaceWith(document.adoptNode(now));
  }
  function swap(html, before, talkBefore) {
    var fresh = new DOMParser().parseFromString(html, "text/html");
    swapTalk(fresh);
    // The table's side moves whole into the fresh game, and the focus back where it was.
    var writing = keepTheTableSide(fresh);
    var parts = ["div.game-head", "nav.replay", "section.final-scoring", "div.game"];
    parts.forEach(function (selector) {
      var old = document.querySelector(selector);
      var now = fresh.querySelector(selector);
      if (old && now) old.replaceWith(document.adoptNode(now));
      else if (!old && now) document.querySelector("div.game").before(document.adoptNode(now));
    });
    writing();
    var lines = said(before);
    var words = talkSaid(talkBefore);
    var live = document.querySelector("p.live");
    if (live) {
      // The words come with the page, in its language (`data-*` of p.live).
      var told = lines.length
        ? live.getAttribute("data-just-played") + " " + lines.join("; ")
        : live.getAttribute("data-moved-on");
      if (words.length) told += " " + live.getAttribute("data-at-table") + " " + words.join("; ");
      live.textContent = told;
    }
    document.dispatchEvent(new Event("pbem:page-updated"));
  }
  function swapTalkOnly(html, talkBefore) {
    swapTalk(new DOMParser().parseFromString(html, "text/html"));
    // The words' times in the reader's zone; not page-updated, which would bind the board's
    // places a second time.
    document.dispatchEvent(new Event("pbem:talk-updated"));
    var words = talkSaid(talkBefore);
    var live = document.querySelector("p.live");
    if (live && words.length) live.textContent = live.getAttribute("data-at-table") + " " + words.join("; ");
  }
  function poll() {
    if (!following() || document.hidden) return;
    var n = nav();
    var before = parseInt(n.getAttribute("data-last"), 10);
    var talkBefore = lastTalk();
    var headers = etag ? { "If-None-Match": etag } : {};
    var moved = false;
    fetch(n.getAttribute("data-poll"), { headers: headers, cache: "no-cache", credentials: "same-origin" })
      .then(function (answer) {
        if (answer.status !== 200) return null;
        etag = answer.headers.get("ETag");
        return answer.json();
      })
      .then(function (now) {
        if (!now) return null;
        moved = now.seq !== before;
        // `talk` is the last word to the table (null for a reader who holds no seat).
        var spoke = now.talk !== null && now.talk !== undefined && now.talk !== talkBefore;
        if (!moved && !spoke) return null;
        return fetch(window.location.href, { credentials: "same-origin" }).then(function (page) {
          return page.ok ? page.text() : null;
        });
      })
      .then(function (html) {
        if (!html) return;
        if (moved) swap(html, before, talkBefore);
        else swapTalkOnly(html, talkBefore);
      })
      .catch(function () { /* offline for a moment: the next poll tries again */ });
  }
  window.setInterval(poll, EVERY_MS);
  document.addEventListener("visibilitychange", poll);
})();

// Planning in place: a step of a decision (a choice, a typed move, Undo, Start again,
// Confirm) is fetched and shown without leaving the page, so the reader stays where they
// were (on a phone, past the header and the map); the address follows in the history, so
// Back steps back as a player expects. Without this script the forms work as they are.
(function () {
  "use strict";
  if (!window.fetch || !window.DOMParser || !window.history || !window.URLSearchParams) return;
  var busy = false;
  // The page's address as shown (path and query): a skip link's #fragment moves nothing.
  var shown = window.location.pathname + window.location.search;
  function game() { return document.querySelector("main.game-page"); }
  function show(html, url, push) {
    var fresh = new DOMParser().parseFromString(html, "text/html");
    var now = fresh.querySelector("main.game-page");
    var old = game();
    if (!now || !old) { window.location.href = url; return; }
    var y = window.scrollY;
    var writing = keepTheTableSide(fresh);
    document.querySelectorAll("body > p.flash").forEach(function (p) { p.remove(); });
    fresh.querySelectorAll("body > p.flash").forEach(function (p) {
      old.before(document.adoptNode(p));
    });
    old.replaceWith(document.adoptNode(now));
    document.title = fresh.title;
    if (push) window.history.pushState({ pbem: "step" }, "", url);
    shown = window.location.pathname + window.location.search;
    window.scrollTo(window.scrollX, y);
    var turn = document.getElementById("your-turn");
    if (!writing() && turn) turn.focus({ preventScroll: true });
    document.dispatchEvent(new Event("pbem:page-updated"));
  }
  function go(request, url, push) {
    if (busy) return;
    busy = true;
    document.documentElement.classList.add("stepping");
    fetch(request, { credentials: "same-origin" })
      .then(function (answer) {
        return answer.text().then(function (html) {
          // A refusal is shown where the reader is, at the address they were at.
          var where = answer.ok ? (answer.redirected ? answer.url : url) : window.location.href;
          show(html, where, push && answer.ok);
        });
      })
      .catch(function () { window.location.href = url; })
      .then(function () {
        busy = false;
        document.documentElement.classList.remove("stepping");
      });
  }
  function stepForm(form) {
    return form.closest("main.game-page") &&
      (form.matches("form.moves, form.typed-move") || form.closest("section.plan"));
  }
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!stepForm(form)) return;
    event.preventDefault();
    var data = new FormData(form);
    var by = event.submitter;
    if (by && by.name) data.append(by.name, by.value);
    var action = form.action.split("#")[0];
    var fields = new URLSearchParams(data);
    if ((form.getAttribute("method") || "get").toLowerCase() === "get") {
      var url = action + "?" + fields.toString() + "#your-turn";
      go(new Request(url), url, true);
    } else {
      go(new Request(action, { method: "POST", body: fields }), action, true);
    }
  });
  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("section.plan a.undo, section.plan a.restart");
    if (!link || event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    go(new Request(link.href), link.href, true);
  });
  window.addEventListener("popstate", function () {
    if (!game() || window.location.pathname + window.location.search === shown) return;
    go(new Request(window.location.href), window.location.href, false);
  });
})();

// A hint being worked out: its part (`section.hint-box[data-hint]`) is asked for again
// every two seconds until the scheduler has worked it out (200), then shown in place and
// said in the live region; a page that moved on meanwhile drops the old one with it.
(function () {
  "use strict";
  var EVERY_MS = 2000;
  function waiting() { return document.querySelector("section.hint-box[data-hint]"); }
  function ask() {
    var box = waiting();
    if (!box || document.hidden) return;
    fetch(box.getAttribute("data-hint"), { cache: "no-cache", credentials: "same-origin" })
      .then(function (answer) { return answer.status === 200 ? answer.text() : null; })
      .then(function (html) {
        if (!html || waiting() !== box) return;
        var fresh = new DOMParser().parseFromString(html, "text/html").querySelector("section.hint-box");
        if (!fresh) return;
        box.replaceWith(document.adoptNode(fresh));
        var live = document.querySelector("p.live");
        var first = fresh.querySelector("ol.hint-moves li");
        if (live && first) live.textContent = fresh.querySelector("h2").textContent + ": " + first.textContent;
      })
      .catch(function () { /* offline for a moment: the next ask tries again */ });
  }
  window.setInterval(ask, EVERY_MS);
})();
