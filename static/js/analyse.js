// 算牌 (docs/analysis.md): the hand's tiles stay on the phone. Every key, every tile of the strip,
// 撤销 and 清空 is still a link (without this script each tap is a request, as it always was);
// with it a tap changes the page at once (strip, key counts, links, the address through
// history.replaceState), and only a hand of 13 or 14 tiles is sent, for #answer alone: with htmx,
// 150 ms after the last change (at once for 14), the request before it aborted (hx-sync replace),
// and an answer whose tiles are no longer the page's is never shown.
// app.js loads this file when a page part names it (data-script on #sanpai).
(function () {
  "use strict";
  var MAX = 14;
  var WAIT_MS = 150;
  var root = null;      // #sanpai in the hand stage, or null: this script then leaves the page alone
  var tiles = [];
  var words = {};
  var timer = null;
  var navigating = false; // a link of the page (自摸, a winner…) is on its way: taps meanwhile are replayed on its answer
  var queued = [];

  // The element the answer requests come from: outside #sanpai (never swapped away), one request at a time.
  var asker = document.createElement("span");
  asker.hidden = true;
  asker.setAttribute("hx-sync", "this:replace");
  document.body.appendChild(asker);

  function say(text, values) {
    return text.replace(/\{(\w+)\}/g, function (all, key) { return key in values ? values[key] : all; });
  }

  function countOf(code) {
    return tiles.filter(function (t) { return t === code; }).length;
  }

  // ``href`` with the tiles ``list`` in place of its own, right after flip= (where the server puts them).
  function withTiles(href, list) {
    var url = new URL(href, location.href);
    var params = new URLSearchParams();
    var placed = false;
    url.searchParams.forEach(function (value, key) {
      if (key === "tiles") return;
      params.append(key, value);
      if (key === "flip" && list.length) { params.append("tiles", list.join(",")); placed = true; }
    });
    if (!placed && list.length) params.append("tiles", list.join(","));
    var query = params.toString();
    return url.pathname + (query ? "?" + query : "");
  }

  function here() {
    return withTiles(root.getAttribute("data-link"), tiles);
  }

  // A key, 撤销 or 清空 is a link when it can be tapped and a disabled span when it cannot (as the
  // server draws them); the element is swapped only when that changes.
  function setLink(el, href) {
    var isLink = el.tagName === "A";
    if (isLink === (href !== null)) {
      if (href !== null) el.setAttribute("href", href);
      return el;
    }
    var other = document.createElement(href !== null ? "a" : "span");
    Array.from(el.attributes).forEach(function (a) {
      if (a.name !== "href" && a.name !== "role" && a.name !== "aria-disabled" && a.name !== "tabindex") other.setAttribute(a.name, a.value);
    });
    other.classList.toggle("disabled", href === null);
    if (href !== null) other.setAttribute("href", href);
    else { other.setAttribute("role", "button"); other.setAttribute("aria-disabled", "true"); }
    while (el.firstChild) other.appendChild(el.firstChild);
    el.replaceWith(other);
    return other;
  }

  function faceOf(code) {
    var key = root.querySelector('.keyboard [data-key="' + code + '"] [aria-hidden="true"]');
    return key ? key.innerHTML : code;
  }

  function nameOf(code) {
    var key = root.querySelector('.keyboard [data-key="' + code + '"]');
    return key ? key.getAttribute("data-name") : code;
  }

  function drawStrip() {
    var strip = root.querySelector(".strip");
    var focused = document.activeElement && strip.contains(document.activeElement) ? document.activeElement.getAttribute("data-key") : null;
    var html = tiles.map(function (code, i) {
      var rest = tiles.slice(0, i).concat(tiles.slice(i + 1));
      var last = i === MAX - 1 ? " last" : "";
      var name = document.createElement("span");
      name.textContent = say(words.remove, { name: nameOf(code) });
      return '<a class="stile' + last + '" href="' + withTiles(root.getAttribute("data-link"), rest).replace(/&/g, "&amp;") + '" data-key="strip-' + (i + 1) +
        '"><span aria-hidden="true">' + faceOf(code) + '</span><span class="visually-hidden">' + name.innerHTML + "</span></a>";
    }).join("");
    if (!tiles.length) {
      var empty = document.createElement("span");
      empty.className = "small text-body-secondary align-self-center";
      empty.textContent = words.empty;
      strip.replaceChildren(empty);
    } else {
      strip.innerHTML = html;
    }
    var again = focused && (strip.querySelector('[data-key="' + focused + '"]') || strip.querySelector("a:last-of-type"));
    if (again) again.focus();
  }

  function drawHint() {
    var hint = root.querySelector(".full-hint");
    if (tiles.length === MAX && !hint) {
      hint = document.createElement("div");
      hint.className = "small text-body-secondary mb-1 full-hint";
      hint.textContent = words.full_hint;
      root.querySelector(".strip").after(hint);
    } else if (tiles.length < MAX && hint) {
      hint.remove();
    }
  }

  function drawKeys() {
    var full = tiles.length >= MAX;
    root.querySelectorAll(".keyboard [data-key]").forEach(function (key) {
      var code = key.getAttribute("data-key");
      var n = countOf(code);
      var can = n < 4 && !full;
      key = setLink(key, can ? withTiles(root.getAttribute("data-link"), tiles.concat([code])) : null);
      var values = { name: key.getAttribute("data-name"), n: n };
      key.querySelector(".visually-hidden").textContent =
        !can ? say(n ? words.full_has : words.full, values) : n ? say(words.has, values) : values.name;
      var badge = key.querySelector(".key-n");
      if (n && !badge) {
        badge = document.createElement("span");
        badge.className = "key-n";
        key.appendChild(badge);
      } else if (!n && badge) {
        badge.remove();
      }
      if (n) badge.setAttribute("data-n", n);
    });
  }

  // Every other link of the page (the toggles, the winners, 碰/杠出, 改翻牌) keeps the tiles.
  function drawLinks() {
    var path = new URL(root.getAttribute("data-link"), location.href).pathname;
    root.querySelectorAll("a[href]").forEach(function (a) {
      if (a.closest(".keyboard, .strip, #answer") || a.hasAttribute("data-op")) return;
      if (new URL(a.href, location.href).pathname !== path) return;
      a.setAttribute("href", withTiles(a.href, tiles));
      window.htmx.process(a);  // htmx's boost took the link's address when it first saw it
    });
    setLink(root.querySelector('[data-op="undo"]'), tiles.length ? withTiles(root.getAttribute("data-link"), tiles.slice(0, -1)) : null);
    setLink(root.querySelector('[data-op="clear"]'), tiles.length ? withTiles(root.getAttribute("data-link"), []) : null);
  }

  function drawAnswer() {
    var answer = document.getElementById("answer");
    var n = tiles.length;
    var line = document.createElement("div");
    line.className = "fw-semibold";
    var count = say(words.count[n === 1 ? 0 : 1], { n: n });
    if (n < 13) {
      var need = 13 - n;
      line.textContent = count + " · " + say(words.need[need === 1 ? 0 : 1], { need: need });
      answer.removeAttribute("aria-busy");
    } else {
      line.className = "text-body-secondary";
      line.textContent = count + " · " + words.reading;
      answer.setAttribute("aria-busy", "true");
    }
    answer.replaceChildren(line);
  }

  function ask() {
    timer = null;
    if (!root || tiles.length < 13) return;
    window.htmx.ajax("GET", here(), { source: asker, target: "#answer", select: "#answer > *", swap: "innerHTML show:none" });
  }

  function changed() {
    var hadFocus = root.contains(document.activeElement);
    root.setAttribute("data-tiles", tiles.join(","));
    drawStrip();
    drawHint();
    drawKeys();
    drawLinks();
    drawAnswer();
    if (typeof setRoving === "function") setRoving(root.parentNode);  // app.js: each group one Tab stop
    // A key that filled up is a span now: focus stays on the keyboard, never falls to <body>.
    if (hadFocus && !root.contains(document.activeElement)) {
      var stop = root.querySelector(".keyboard a[tabindex='0']") || root.querySelector(".strip a[tabindex='0']");
      if (stop) stop.focus();
    }
    history.replaceState(history.state, "", here());
    window.clearTimeout(timer);
    timer = null;
    if (tiles.length >= 13) {
      if (navigating) return;  // asked once the page's own answer is in
      timer = window.setTimeout(ask, tiles.length === MAX ? 0 : WAIT_MS);
    }
  }

  function apply(op) {
    var next = tiles.slice();
    if (op.add) {
      if (next.length >= MAX || countOf(op.add) >= 4) return false;
      next.push(op.add);
    } else if (op.remove !== undefined) {
      if (op.remove >= next.length) return false;
      next.splice(op.remove, 1);
    } else if (op.undo) {
      if (!next.length) return false;
      next.pop();
    } else if (op.clear) {
      if (!next.length) return false;
      next = [];
    }
    tiles = next;
    return true;
  }

  function opOf(link) {
    if (link.closest(".keyboard")) return { add: link.getAttribute("data-key") };
    if (link.closest(".strip")) return { remove: Array.from(link.parentNode.children).indexOf(link) };
    var op = link.getAttribute("data-op");
    if (op === "undo") return { undo: true };
    if (op === "clear") return { clear: true };
    return null;
  }

  // The page as the server drew it (a full load, a link of the page, the back gesture).
  function start() {
    var found = document.getElementById("sanpai");
    root = found && found.hasAttribute("data-tiles") ? found : null;
    if (!root) { queued = []; return; }
    // Not kept in htmx's history cache: the tiles change the page after htmx has seen it, so the
    // back gesture asks the server for the address instead.
    root.setAttribute("hx-history", "false");
    var list = root.getAttribute("data-tiles");
    tiles = list ? list.split(",") : [];
    words = JSON.parse(root.getAttribute("data-words"));
    var replay = queued;
    queued = [];
    if (replay.length && replay.map(apply).some(Boolean)) changed();
  }

  document.addEventListener("click", function (event) {
    if (!root || !document.body.contains(root) || event.defaultPrevented) return;
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;  // a new tab: the link itself
    var link = event.target.closest && event.target.closest("a[href]");
    var op = link && root.contains(link) ? opOf(link) : null;
    if (!op) return;
    event.preventDefault();
    event.stopPropagation();  // htmx's boost never hears it
    if (!apply(op)) return;
    if (navigating) queued.push(op);
    changed();
  }, true);

  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail.elt;
    if (elt === asker || !root || !root.contains(elt)) return;
    navigating = true;
    queued = [];
    window.clearTimeout(timer);
    window.htmx.trigger(asker, "htmx:abort");
  });
  ["htmx:responseError", "htmx:sendError", "htmx:timeout", "htmx:sendAbort"].forEach(function (name) {
    document.addEventListener(name, function (event) {
      if (event.detail.elt === asker || !navigating) return;
      navigating = false;
      queued = [];
      if (root && tiles.length >= 13) ask();
    });
  });
  document.addEventListener("htmx:load", function (event) {
    var elt = event.detail.elt;
    if (elt.id === "sanpai" || elt === document.body || (elt.querySelector && elt.querySelector("#sanpai"))) {
      navigating = false;
      start();
    }
  });

  // An answer is shown only for the tiles (and the rest of the query) the page holds now.
  document.addEventListener("htmx:beforeSwap", function (event) {
    if (event.detail.requestConfig && event.detail.requestConfig.elt === asker) {
      if (!root || event.detail.pathInfo.requestPath !== here()) event.detail.shouldSwap = false;
    }
  });
  document.addEventListener("htmx:afterSwap", function (event) {
    if (event.detail.requestConfig && event.detail.requestConfig.elt === asker) event.detail.target.removeAttribute("aria-busy");
  });

  start();
})();
