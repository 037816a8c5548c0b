// The instant steps (static/js/steps.js) are of use only once the page is up: their script is
// fetched after the load, so it never competes with the page's first paint.
window.addEventListener("load", function () {
  var meta = document.querySelector('meta[name="steps-script"]');
  if (!meta) return;
  var script = document.createElement("script");
  script.src = meta.content;
  document.head.appendChild(script);
});

// This page into htmx's history cache, as htmx 2 keeps it before a boosted link's page takes its
// place (its saveCurrentPageToHistory): the page left copied under its address, so the back
// gesture shows it again. static/js/steps.js (a question shown from the bundle, a sheet fetched
// ahead) and static/js/offline.js (the game page painted at 确认) swap pages themselves and call it.
// The page is copied at once; writing it out (its HTML, the whole cache through JSON) waits until
// the next page is painted, off the tap's path (tens of ms on a game page of 40 hands). The copies
// written here are also kept in memory for this page's life (historyCopy).
var historyMemo = {};
window.saveHtmxHistory = function () {
  var htmx = window.htmx, store = window.sessionStorage, CACHE = "htmx-history-cache", path = null;
  if (!htmx || !store) return;
  try { path = store.getItem("htmx-current-path-for-history"); } catch (error) { /* private mode */ }
  var url = new URL(path || window.location.pathname + window.location.search, window.location.href);
  path = url.pathname + url.search;
  path = path === "/" ? path : path.replace(/\/+$/, "");
  var off = document.querySelector('[hx-history="false" i],[data-hx-history="false" i]');
  if (!off && htmx.config.historyCacheSize > 0) {
    htmx.trigger(document.body, "htmx:beforeHistorySave", { path: path, historyElt: document.body });
    var copy = document.body.cloneNode(true), title = document.title, scroll = window.scrollY;
    var write = function () {
      copy.querySelectorAll("." + htmx.config.requestClass).forEach(function (el) { el.classList.remove(htmx.config.requestClass); });
      copy.querySelectorAll("[data-disabled-by-htmx]").forEach(function (el) { el.removeAttribute("disabled"); });
      var item = { url: path, content: copy.innerHTML, title: title, scroll: scroll };
      historyMemo[path] = item;
      try {
        var cache = (JSON.parse(store.getItem(CACHE)) || []).filter(function (old) { return old.url !== item.url; });
        htmx.trigger(document.body, "htmx:historyItemCreated", { item: item, cache: cache });
        cache.push(item);
        while (cache.length > htmx.config.historyCacheSize) cache.shift();
        while (cache.length) {
          try { store.setItem(CACHE, JSON.stringify(cache)); break; } catch (error) { cache.shift(); }
        }
      } catch (error) { /* a cache htmx would not read either */ }
    };
    historyMemo[path] = { write: write };
    window.requestAnimationFrame(function () { window.setTimeout(function () { if (historyMemo[path] && historyMemo[path].write === write) write(); }, 0); });
  }
  window.history.replaceState({ htmx: true }, document.title, window.location.href);
};
// The copy of ``url`` in htmx's history: the one written here (at once if still to be written),
// else htmx's own from sessionStorage; null when there is none.
window.htmxHistoryCopy = function (url) {
  var want = url === "/" ? url : url.replace(/\/+$/, "");
  var memo = historyMemo[want];
  if (memo && memo.write) memo.write();
  if (historyMemo[want] && historyMemo[want].content !== undefined) return historyMemo[want];
  try {
    return (JSON.parse(window.sessionStorage.getItem("htmx-history-cache")) || []).filter(function (item) {
      return item.url === want || item.url === url;
    })[0] || null;
  } catch (error) {
    return null;
  }
};
// htmx's own copies (a boosted link's page left) are the newer ones.
document.addEventListener("htmx:historyItemCreated", function (event) {
  var item = event.detail && event.detail.item;
  if (item && item.url && item.content !== undefined) historyMemo[item.url] = item;
});
// A back or forward gesture htmx serves from sessionStorage: a copy still to be written goes first.
window.addEventListener("popstate", function () {
  Object.keys(historyMemo).forEach(function (path) { if (historyMemo[path].write) historyMemo[path].write(); });
}, true);

// Polling pauses while the tab is hidden and catches up at once when it is shown again.
document.addEventListener("htmx:beforeRequest", function (event) {
  if (document.hidden && event.detail.elt.hasAttribute("data-poll")) {
    event.preventDefault();
  }
});
document.addEventListener("visibilitychange", function () {
  if (!document.hidden && window.htmx) {
    document.querySelectorAll("[data-poll]").forEach(function (el) {
      window.htmx.trigger(el, "poll-now");
    });
  }
});

// 复制: copy a share text to the clipboard (WeChat), falling back to selecting it. 「已复制」 is said
// only when a copy happened; otherwise the text stays selected for the phone's own long-press copy.
function copyBySelecting(source) {
  if (source.select) {
    source.select();
  } else {
    var range = document.createRange();
    range.selectNodeContents(source);
    window.getSelection().removeAllRanges();
    window.getSelection().addRange(range);
  }
  try {
    return document.execCommand("copy");
  } catch (error) {
    return false;
  }
}
document.addEventListener("click", function (event) {
  var button = event.target.closest("[data-copy]");
  if (!button) return;
  var source = document.querySelector(button.getAttribute("data-copy"));
  if (!source) return;
  var done = function () { button.textContent = button.getAttribute("data-copied") || "OK"; };
  var fallback = function () { if (copyBySelecting(source)) done(); };
  if (navigator.clipboard && window.isSecureContext) {  // refused (no permission): the old way
    navigator.clipboard.writeText(source.value || source.textContent).then(done, fallback);
  } else {  // plain http on the table's Wi-Fi
    fallback();
  }
});

// 分享: the phone's own share sheet (Web Share API). The buttons stay hidden where it is missing.
function showShareButtons(root) {
  if (typeof navigator.share !== "function") return;
  (root.querySelectorAll ? root : document).querySelectorAll("[data-share]").forEach(function (button) {
    button.hidden = false;
  });
}
document.addEventListener("DOMContentLoaded", function () { showShareButtons(document); });
document.addEventListener("htmx:load", function (event) { showShareButtons(event.detail.elt); });
document.addEventListener("click", function (event) {
  var button = event.target.closest("[data-share]");
  if (!button || typeof navigator.share !== "function") return;
  var source = document.querySelector(button.getAttribute("data-share"));
  if (!source) return;
  var value = source.value || source.textContent;
  var data = button.hasAttribute("data-share-url") ? { url: value } : { text: value };
  navigator.share(data).catch(function () { /* the person closed the sheet */ });
});

// Marks forms once htmx has wired them up, so nothing waits on a form htmx has not seen yet.
document.addEventListener("htmx:load", function (event) {
  var root = event.detail.elt;
  var forms = root.matches && root.matches("form") ? [root] : Array.from(root.querySelectorAll ? root.querySelectorAll("form") : []);
  forms.forEach(function (form) { form.setAttribute("data-ready", "1"); });
});

// 其他台 stepper: − / + change the number beside them and tell the form it changed (preview).
document.addEventListener("click", function (event) {
  var button = event.target.closest("[data-step-for]");
  if (!button) return;
  var input = document.getElementById(button.getAttribute("data-step-for"));
  if (!input) return;
  var min = Number(input.min || 0), max = Number(input.max || 99);
  var value = Math.min(max, Math.max(min, (Number(input.value) || 0) + Number(button.getAttribute("data-step"))));
  if (String(value) === input.value) return;
  input.value = value;
  input.dispatchEvent(new Event("change", { bubbles: true }));
});

// 自定底分: typing a base picks the 自定 preset beside it.
document.addEventListener("input", function (event) {
  var id = event.target.getAttribute && event.target.getAttribute("data-picks");
  var radio = id && document.getElementById(id);
  if (radio) radio.checked = true;
});

// 开今晚's 每桌玩法: only the tables opened show their select (without JS all eight show; those past the
// number opened are ignored by the server, scoring/nights/forms.py).
function showTablesOpened() {
  var count = document.getElementById("id_tables");
  if (!count) return;
  document.querySelectorAll("[data-table-ruleset]").forEach(function (col) {
    col.hidden = Number(col.getAttribute("data-table-ruleset")) > Number(count.value);
  });
}
document.addEventListener("DOMContentLoaded", showTablesOpened);
document.addEventListener("change", function (event) {
  if (event.target.id === "id_tables") showTablesOpened();
});

// A poll swaps the hand list: the rows this phone had unfolded stay unfolded.
var openRows = [];
document.addEventListener("htmx:oobBeforeSwap", function (event) {
  if (event.detail.target && event.detail.target.id === "hands") {
    openRows = Array.from(event.detail.target.querySelectorAll("details.hand-row[open]")).map(function (row) { return row.id; });
  }
});
document.addEventListener("htmx:oobAfterSwap", function (event) {
  var hands = document.getElementById("hands");
  if (!hands || !openRows.length) return;
  openRows.forEach(function (id) {
    var row = document.getElementById(id);
    if (row && hands.contains(row)) row.open = true;
  });
});

// The page's address names a hand (#hand-7, e.g. from a refused void): open that row.
function openNamedRow() {
  var match = /^#hand-\d+$/.exec(window.location.hash);
  var row = match && document.getElementById(match[0].slice(1));
  if (row && row.matches("details.hand-row")) {
    row.open = true;
    row.scrollIntoView({ block: "center" });
  }
}
document.addEventListener("DOMContentLoaded", openNamedRow);
window.addEventListener("hashchange", openNamedRow);
document.addEventListener("htmx:load", function (event) {
  if (event.detail.elt === document.body || (event.detail.elt.querySelector && event.detail.elt.querySelector("#hands"))) openNamedRow();
});

// A message floats over the page, letting taps through to what lies below: any tap puts it
// away, a success fades by itself.
document.addEventListener("click", function () {
  document.querySelectorAll(".flash .alert").forEach(function (alert) { alert.remove(); });
});
function fadeFlash() {
  document.querySelectorAll(".flash .alert-success").forEach(function (alert) {
    if (alert.dataset.fading) return;
    alert.dataset.fading = "1";
    window.setTimeout(function () { alert.remove(); }, 6000);
  });
}
document.addEventListener("DOMContentLoaded", fadeFlash);
document.addEventListener("htmx:load", fadeFlash);

// 晒图: the picture's SVG redrawn as a PNG with the phone's own fonts, so it can be long-pressed
// (WeChat's browser saves and forwards images, not SVG), downloaded and sent with the share sheet.
function drawPicture() {
  var img = document.querySelector("img[data-picture]");
  if (!img || img.dataset.png) return;
  var draw = function () {
    if (img.dataset.png || !img.naturalWidth) return;
    var canvas = document.createElement("canvas");
    canvas.width = img.naturalWidth;
    canvas.height = img.naturalHeight;
    canvas.getContext("2d").drawImage(img, 0, 0);
    var png = canvas.toDataURL("image/png");
    img.dataset.png = "1";
    img.src = png;
    var link = document.querySelector("[data-picture-download]");
    if (link) {
      link.href = png;
      link.download = link.download.replace(/\.svg$/, ".png");
    }
    var share = document.querySelector("[data-picture-share]");
    if (!share || typeof navigator.canShare !== "function") return;
    canvas.toBlob(function (blob) {
      var file = new File([blob], link ? link.download : "mahjong.png", { type: "image/png" });
      if (!navigator.canShare({ files: [file] })) return;
      share.hidden = false;
      share.onclick = function () { navigator.share({ files: [file] }).catch(function () {}); };
    }, "image/png");
  };
  if (img.complete) draw(); else img.addEventListener("load", draw, { once: true });
}
document.addEventListener("DOMContentLoaded", drawPicture);
document.addEventListener("htmx:load", drawPicture);

// Keyboards and screen readers. A [data-roving] group is one Tab stop whose arrow keys move
// between its links ([data-roving-row] rows: up and down keep the column), so the 算牌 keyboard
// is reached in one Tab however many tiles are in the hand.
function rovingItems(group) {
  return Array.from(group.querySelectorAll("a[href][data-key]"));
}
function setRoving(root) {
  (root.querySelectorAll ? root : document).querySelectorAll("[data-roving]").forEach(function (group) {
    var items = rovingItems(group);
    var current = items.find(function (a) { return a.getAttribute("data-key") === lastFocusedKey; }) || items[0];
    items.forEach(function (a) { a.tabIndex = a === current ? 0 : -1; });
  });
}
document.addEventListener("keydown", function (event) {
  var item = event.target.closest && event.target.closest("[data-roving] a[data-key]");
  if (!item) return;
  var group = item.closest("[data-roving]");
  var items = rovingItems(group);
  var at = items.indexOf(item), next = null;
  if (event.key === "ArrowRight") next = items[at + 1];
  else if (event.key === "ArrowLeft") next = items[at - 1];
  else if (event.key === "Home") next = items[0];
  else if (event.key === "End") next = items[items.length - 1];
  else if (event.key === "ArrowDown" || event.key === "ArrowUp") {
    var row = item.closest("[data-roving-row]");
    var rows = Array.from(group.querySelectorAll("[data-roving-row]"));
    var to = rows[rows.indexOf(row) + (event.key === "ArrowDown" ? 1 : -1)];
    if (to) {
      var column = Array.from(row.children).indexOf(item);
      var cells = Array.from(to.children);
      next = cells.slice(0, column + 1).reverse().concat(cells.slice(column + 1)).find(function (c) { return c.matches("a[href]"); });
    }
  }
  if (!next) return;
  event.preventDefault();
  item.tabIndex = -1;
  next.tabIndex = 0;
  next.focus();
});
// After a swap, focus stays where the person was (the same 算牌 key) or moves to the new step's
// question, which a screen reader then reads; it never falls back to <body>. A poll bringing
// another phone's hand moves no focus the person had put nowhere (no ring round 「共 1 局」 at
// every hand, no screen reader sent there).
var lastFocusedKey = null;
var pollFoundNoFocus = false;  // the swap under way is a poll's, on a page with nothing focused
document.addEventListener("focusin", function (event) {
  var key = event.target.closest && event.target.closest("[data-key]");
  lastFocusedKey = key ? key.getAttribute("data-key") : null;
});
document.addEventListener("htmx:beforeSwap", function (event) {
  var unfocused = !document.activeElement || document.activeElement === document.body;
  pollFoundNoFocus = unfocused && event.detail.elt.hasAttribute("data-poll");
});
document.addEventListener("htmx:afterSettle", function (event) {
  var root = event.detail.target;
  if (!root || !document.body.contains(root)) root = document.body;  // an outerHTML swap replaced it
  setRoving(root);
  if (document.activeElement && document.activeElement !== document.body && document.body.contains(document.activeElement)) return;
  if (pollFoundNoFocus) return;  // each part it swapped in (the tiles, the hands) settles in turn
  var key = lastFocusedKey && root.querySelector('a[data-key="' + lastFocusedKey + '"]');
  var question = root.querySelector(".question") || root.querySelector("main h1:not(.visually-hidden), main h2");
  var target = key || question;
  if (!target) return;
  if (!key) target.tabIndex = -1;
  target.focus({ preventScroll: true });
});
document.addEventListener("DOMContentLoaded", function () { setRoving(document); });

// A page part that needs its own script names it (data-script, e.g. 算牌's static/js/analyse.js):
// loaded once, after a full load or an htmx swap (htmx itself runs no script it swaps in).
function loadPageScripts(root) {
  var parts = Array.from((root.querySelectorAll ? root : document).querySelectorAll("[data-script]"));
  if (root.matches && root.matches("[data-script]")) parts.push(root);
  parts.forEach(function (part) {
    var src = part.getAttribute("data-script");
    if (document.querySelector('script[src="' + src + '"]')) return;
    var script = document.createElement("script");
    script.src = src;
    document.head.appendChild(script);
  });
}
document.addEventListener("DOMContentLoaded", function () { loadPageScripts(document); });
document.addEventListener("htmx:load", function (event) { loadPageScripts(event.detail.elt); });

// A press on a button the preview refresh would replace (确认记录, in the part it swaps): leaving the
// field that was focused fires a change, and its refresh must not swap the button out between the
// finger going down and coming up, or the tap is lost. The refresh is held; a press that ends in
// no submit asks for the preview again.
var pressedButton = null;
var heldPreview = false;
var pressSubmitted = false;
document.addEventListener("pointerdown", function (event) {
  pressedButton = event.target.closest ? event.target.closest("#hand-form button") : null;
  heldPreview = pressSubmitted = false;
}, true);
document.addEventListener("submit", function () { pressSubmitted = true; }, true);
function pressEnded() {
  if (!pressedButton) return;
  var form = pressedButton.form;
  pressedButton = null;
  setTimeout(function () {  // after the click this press makes, and its submit, if any
    if (heldPreview && !pressSubmitted && form && document.body.contains(form) && window.htmx) window.htmx.trigger(form, "change");
    heldPreview = false;
  }, 0);
}
document.addEventListener("pointerup", pressEnded, true);
document.addEventListener("pointercancel", pressEnded, true);
document.addEventListener("htmx:beforeSwap", function (event) {
  var asker = event.detail.requestConfig && event.detail.requestConfig.elt;  // detail.elt is the target
  if (!pressedButton || !asker || !asker.hasAttribute("data-preview")) return;
  if (!event.detail.target || !event.detail.target.contains(pressedButton)) return;
  event.detail.shouldSwap = false;
  heldPreview = true;
});

// Nothing moves under a finger (docs/manual.md, 大字): a poll's fresh parts wait while a finger is on
// the screen or left it less than 1.5 s ago, while a field is being filled in, and while the keyboard's
// focus is in a part the poll would replace. The poller keeps its version and asks again; once the
// hands are free it asks at once.
var fingerDown = false, fingerAt = 0, pollHeld = false;
var FINGER_MS = 1500;
function handsBusy(response) {
  if (fingerDown || Date.now() - fingerAt < FINGER_MS) return true;
  var focused = document.activeElement;
  if (!focused || focused === document.body) return false;
  if (focused.matches("textarea, select, input:not([type=hidden]):not([type=checkbox]):not([type=radio]):not([type=submit]):not([type=button])")) return true;
  if (!focused.matches(":focus-visible")) return false;  // a tapped button keeps a focus nobody sees
  for (var part = focused; part; part = part.parentElement) {
    if (part.id && response.indexOf('id="' + part.id + '"') !== -1) return true;
  }
  return false;
}
function releasePoll() {
  if (!pollHeld || handsBusy("")) return;
  pollHeld = false;
  document.querySelectorAll("[data-poll]").forEach(function (el) { if (window.htmx) window.htmx.trigger(el, "poll-now"); });
}
document.addEventListener("pointerdown", function () { fingerDown = true; fingerAt = Date.now(); }, true);
["pointerup", "pointercancel"].forEach(function (name) {
  document.addEventListener(name, function () {
    fingerDown = false;
    fingerAt = Date.now();
    if (pollHeld) setTimeout(releasePoll, FINGER_MS + 50);
  }, true);
});
window.addEventListener("blur", function () { fingerDown = false; });  // a finger that left with the page
document.addEventListener("focusout", function () { if (pollHeld) setTimeout(releasePoll, 0); });
document.addEventListener("htmx:beforeSwap", function (event) {
  if (!event.detail.elt.hasAttribute("data-poll") || !event.detail.shouldSwap) return;
  if (!handsBusy(event.detail.serverResponse || "")) return;
  event.detail.shouldSwap = false;
  // Asked for again once the hands are free: a poll the phone asked for itself (its own hand landed,
  // static/js/offline.js) would otherwise wait for the next every-3-s one.
  if (!pollHeld && !fingerDown) setTimeout(releasePoll, Math.max(0, FINGER_MS + 50 - (Date.now() - fingerAt)));
  pollHeld = true;
});
