// Instant steps. The questions of the record flow come ahead in one bundle per game
// (scoring/table/views/steps.py): each is the page the server answers for a step link, keyed by that
// link. A tap on such a link shows it at once, with no request: htmx swaps it in as it would a
// boosted link's answer, and its address goes into the history as htmx puts it there (its own
// copy of the page left), so the back gesture and a refresh work as before. Any other link (a
// sheet, a preview, a step of another game version, or any tap before the bundle is here) goes
// to the server as before, except that a question screen fetches its sheets ahead (fetchAhead)
// and a tap on one shows the answer already here. Every link stays a plain link: without this
// script nothing changes.
// localStorage "instant-steps" = "off" turns it off (bench/taps.py measures both). app.js loads
// this script once the page has loaded.
(function () {
  "use strict";
  var htmx = window.htmx;
  if (!htmx || !/^2\./.test(htmx.version || "") || !window.fetch || !window.sessionStorage) return;
  try {
    if (window.localStorage.getItem("instant-steps") === "off") return;
  } catch (error) { /* storage refused: on */ }

  var bundle = null; // {src, version, nextSeq, steps: {link: <template>}, leaves: {link: facts}, confirm: <template>}
  var fetching = null; // the src and version being fetched

  // The page names where its game's steps are and the version it shows. A bundle older than the
  // page is dropped at once (a poll brought another phone's hand: its questions are of an older
  // table) and the new one fetched; one newer than the page is kept (its links carry the new
  // version, so the page's own links, of the old one, find no step and ask the server).
  function refresh() {
    var marker = document.querySelector("[data-steps]");
    if (!marker) return;
    var src = marker.getAttribute("data-steps");
    var version = Number(marker.getAttribute("data-version"));
    heard(version);
    if (bundle && bundle.src === src && bundle.version >= version) return;
    if (bundle && bundle.src === src) bundle = null;
    var key = src + "#" + version;
    if (fetching === key) return;
    fetching = key;
    var throughWorker = !!(navigator.serviceWorker && navigator.serviceWorker.controller);
    fetch(src, { credentials: "same-origin" })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (text) {
        if (fetching === key) fetching = null;
        var holder = document.createElement("template");
        holder.innerHTML = text || "";
        var root = holder.content.querySelector("[data-steps-version]");
        if (!root) return;
        var got = {
          src: src, text: text, throughWorker: throughWorker,
          version: Number(root.getAttribute("data-steps-version")), steps: {}, leaves: {},
          nextSeq: root.getAttribute("data-next-seq"), confirm: root.querySelector("template[data-offline-confirm]"),
        };
        if (bundle && bundle.src === src && bundle.version > got.version) return;
        root.querySelectorAll("template[data-step]").forEach(function (step) {
          got.steps[step.getAttribute("data-step")] = step;
        });
        root.querySelectorAll("template[data-leaf]").forEach(function (leaf) {
          got.leaves[leaf.getAttribute("data-leaf")] = leaf.getAttribute("data-facts") || "";
        });
        bundle = got;
        heard(got.version);
        handOver(got); // a worker that took over while it was on its way
        document.documentElement.setAttribute("data-steps-ready", String(got.version));
      })
      .catch(function () { if (fetching === key) fetching = null; });
  }
  if (document.readyState === "complete") refresh(); else window.addEventListener("load", refresh);
  // The service worker took this page over after it loaded (its first visit): it is handed the
  // bundle this page fetched without it, to keep for a reload with no network (not fetched again).
  function handOver(got) {
    var worker = navigator.serviceWorker && navigator.serviceWorker.controller;
    if (worker && got && !got.throughWorker) {
      got.throughWorker = true;
      worker.postMessage({ keep: new URL(got.src, window.location.href).href, body: got.text });
    }
  }
  if (navigator.serviceWorker) {
    navigator.serviceWorker.addEventListener("controllerchange", function () { handOver(bundle); });
  }
  document.addEventListener("htmx:afterSettle", refresh);
  document.addEventListener("htmx:oobAfterSwap", refresh);
  document.addEventListener("htmx:historyRestore", refresh);

  // The last tap wins, as with the browser's own links: a page still on its way from the server
  // when a step is shown here (a boosted link or form tapped just before, e.g. 我是) is not
  // swapped over that step when it lands (what it did on the server stands).
  var shown = 0;
  function isNavigation(detail) {
    return detail.boosted || detail.target === document.body;
  }
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (isNavigation(event.detail) && event.detail.xhr) event.detail.xhr.stepsShown = shown;
  });
  document.addEventListener("htmx:beforeSwap", function (event) {
    var xhr = event.detail.xhr;
    if (isNavigation(event.detail) && xhr && xhr.stepsShown !== undefined && xhr.stepsShown < shown) {
      event.detail.shouldSwap = false;
    }
  });

  // For static/js/offline.js, with no network: whether a link is a question shown here (it lets
  // the tap through), and a link past the questions (a preview, a sheet), to keep its hand from: {facts: the hand's title, "" when its answers are no whole hand yet, nextSeq,
  // screen: the confirm screen's <template>}, or null when the bundle does not name it.
  window.stepsShows = function (link) { return !!stepOf(link); };
  window.stepsLeaf = function (href) {
    if (!bundle || !Object.prototype.hasOwnProperty.call(bundle.leaves, href)) return null;
    return { facts: bundle.leaves[href], nextSeq: bundle.nextSeq, screen: bundle.confirm };
  };

  function stepOf(link) {
    if (!bundle || !link || link.target || link.hasAttribute("download") || link.closest("[hx-boost='false']")) return null;
    return bundle.steps[link.getAttribute("href")] || null;
  }

  // htmx's history, as it keeps it for a boosted link: app.js's saveHtmxHistory (offline.js uses it too).
  var PATH = "htmx-current-path-for-history";
  function currentPath(path) {
    try { sessionStorage.setItem(PATH, path); } catch (error) { /* private mode */ }
  }
  function saveHistory() { window.saveHtmxHistory(); }

  // The step swapped in as htmx swaps a boosted page's body: its title, then settled at once
  // (app.js moves focus to the question), at the top of the page.
  function show(step) {
    htmx.swap(document.body, step.innerHTML, { swapStyle: "innerHTML", swapDelay: 0, settleDelay: 0 });
    window.scrollTo(0, 0);
  }

  document.addEventListener("click", function (event) {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    var link = event.target.closest && event.target.closest("a[href]");
    if (link && link === passing) return; // a held tap let through to htmx
    if (link) taps++;
    var step = stepOf(link);
    if (!step) {
      holdForPreload(link, event);
      return;
    }
    event.preventDefault();
    event.stopPropagation(); // before htmx's own listener on the link: no request
    var href = link.getAttribute("href");
    saveHistory();
    shown++;
    show(step);
    window.history.pushState({ htmx: true }, "", href);
    currentPath(href);
    fetchAheadSoon();
  }, true);

  // One request for a link past the questions (a sheet with its preview, which only the server
  // makes): the preload extension asks for it at the finger's touchstart, and a click that came
  // before its answer (a tap is shorter than a weak 4G round trip) asked the server again (issue
  // 42, docs/performance.md). Such a click now waits for the preload's answer and shows it as htmx
  // shows a boosted page; an answer that is no plain page (an error, a redirect, an htmx header),
  // or none within PRELOAD_MS, goes to htmx as before (the phone's cache or the server).
  var PRELOAD_MS = 30000; // the answer's own max-age (scoring/table/handpage.py PRELOAD_SECONDS)
  var preloads = {}; // href → {xhr, at}: this page's preloads
  var taps = 0; // link taps: a held tap is dropped once another link is tapped (the last tap wins)
  var passing = null; // the link of a held tap being let through to htmx
  document.addEventListener("htmx:beforeRequest", function (event) {
    var config = event.detail.requestConfig;
    if (!config || !config.headers || config.headers["HX-Preloaded"] !== "true" || !event.detail.xhr) return;
    if (fresh(preloads[config.path])) return; // fetched ahead already: that answer stands
    preloads[config.path] = { xhr: event.detail.xhr, at: Date.now() };
  });
  document.addEventListener("htmx:beforeHistorySave", function () { preloads = {}; waiting = []; });

  // Fetched ahead (issue 42): a question screen, once painted, asks for the pages its links past
  // the questions lead to (the sheets of 自摸, 财神头, 杠开 …, each discarder's), so the tap about
  // half a second later, when the person has read the choices, shows an answer already here.
  // Bounded: AHEAD links a screen, in the page's order, FETCHING at a time; same-origin record
  // links of the game version the phone knows; not offline, not with Save-Data. Each answer is
  // the server's page as a tap would get it (its own form token: only the one shown is confirmed,
  // and the outbox and the form token keep that exactly once). An answer older than AHEAD_MS, of
  // an older game version than a poll or the bundle brought since, or of a page left, is dropped.
  var AHEAD = 8, AHEAD_MS = 20000, FETCHING = 5; // 义乌's win types: 自摸, the 3 discarders, 财神头 first
  var newest = 0; // the newest game version this page has heard of
  var waiting = []; // hrefs to fetch ahead, in order
  var inFlight = 0;
  function versionIn(href) {
    var match = /[?&]v=(\d+)(&|$)/.exec(href);
    return match ? Number(match[1]) : null;
  }
  function fresh(entry) {
    return !!entry && Date.now() - entry.at <= (entry.ahead ? AHEAD_MS : PRELOAD_MS) &&
      !(entry.version !== null && entry.version !== undefined && entry.version < newest) && !entry.failed;
  }
  function heard(version) {
    if (!(version > newest)) return;
    newest = version;
    Object.keys(preloads).forEach(function (href) { if (!fresh(preloads[href])) delete preloads[href]; });
    waiting = waiting.filter(function (href) { return !(versionIn(href) < newest); });
  }
  // A question of the record flow: its address, and neither a sheet (its form) nor the game page
  // (its hand list: the game page painted at 确认 still has the sheet's address).
  function questionScreen() {
    return /^\/g\/[^/]+\/record$/.test(window.location.pathname) && !document.getElementById("hand-form") &&
      !document.getElementById("hands");
  }
  function aheadable(link) {
    if (!link || link.target || link.hasAttribute("download") || link.closest("[hx-boost='false']") || stepOf(link)) return false;
    if (link.origin !== window.location.origin || !/^\/g\/[^/]+\/record$/.test(link.pathname)) return false;
    var version = versionIn(link.getAttribute("href"));
    return version !== null && version >= newest;
  }
  function fetchAhead() {
    var saveData = navigator.connection && navigator.connection.saveData;
    if (navigator.onLine === false || saveData || !questionScreen()) return;
    var main = document.getElementById("main") || document.body;
    var count = 0;
    Array.prototype.forEach.call(main.querySelectorAll("a[href]"), function (link) {
      if (count >= AHEAD || !aheadable(link)) return;
      count++;
      var href = link.getAttribute("href");
      if (fresh(preloads[href]) || waiting.indexOf(href) >= 0) return;
      waiting.push(href);
    });
    pump();
  }
  function pump() {
    while (inFlight < FETCHING && waiting.length) {
      var href = waiting.shift();
      if (fresh(preloads[href])) continue;
      inFlight++;
      ahead(href);
    }
  }
  function ahead(href) {
    var xhr = new XMLHttpRequest();
    var entry = { xhr: xhr, at: Date.now(), version: versionIn(href), ahead: true };
    xhr.open("GET", href);
    // As htmx asks for a boosted link: the server answers the same page, one its cache may keep.
    xhr.setRequestHeader("HX-Request", "true");
    xhr.setRequestHeader("HX-Boosted", "true");
    xhr.setRequestHeader("HX-Preloaded", "ahead"); // a page not yet shown, as the preload extension says ("true"), fetched ahead
    xhr.setRequestHeader("HX-Current-URL", window.location.href);
    // The server's answer now, not a copy the phone's cache kept of the same address (a copy
    // would carry the form token of a hand already confirmed from it).
    xhr.setRequestHeader("Cache-Control", "no-cache");
    xhr.timeout = 8000;
    xhr.addEventListener("loadend", function () {
      inFlight--;
      if (!plainPage(xhr, href)) entry.failed = true; // a tap then asks (or is told) as before
      pump();
    });
    preloads[href] = entry;
    xhr.send();
  }
  // After the screen is painted: the requests are not sent on the tap's path.
  function fetchAheadSoon() {
    window.requestAnimationFrame(function () { window.setTimeout(fetchAhead, 0); });
  }
  document.addEventListener("htmx:afterSettle", fetchAheadSoon);
  window.addEventListener("popstate", function () { waiting = []; });
  document.addEventListener("submit", function () { taps++; }, true);

  function holdForPreload(link, event) {
    if (!link || link.target || link.hasAttribute("download") || link.closest("[hx-boost='false']")) return;
    var href = link.getAttribute("href");
    var preload = Object.prototype.hasOwnProperty.call(preloads, href) ? preloads[href] : null;
    if (!fresh(preload)) return;
    event.preventDefault();
    event.stopPropagation(); // before htmx's own listener on the link: no second request
    var tap = taps, xhr = preload.xhr, done = false;
    var answered = function () {
      if (done) return;
      done = true;
      if (tap !== taps) return;
      if (plainPage(xhr, href)) {
        saveHistory();
        shown++;
        show({ innerHTML: xhr.responseText });
        window.history.pushState({ htmx: true }, "", href);
        currentPath(href);
      } else if (preload.ahead && offerKept(xhr, link)) {
        // fetched ahead and the server was not there: the hand is offered to keep, no second try
      } else if (document.body.contains(link)) {
        passing = link;
        try { link.click(); } finally { passing = null; }
      } else {
        window.location.assign(href); // its page swapped meanwhile: the plain link it is
      }
    };
    if (xhr.readyState === 4) answered();
    else {
      xhr.addEventListener("loadend", answered);
      setTimeout(answered, Math.max(0, PRELOAD_MS - (Date.now() - preload.at)));
    }
  }
  // A fetch ahead that failed for want of the server (no answer, a 5xx, a proxy's page) while the
  // tap waited on it: static/js/offline.js offers to keep the hand, as it does when htmx fails.
  function offerKept(xhr, link) {
    var away = xhr.status === 0 || xhr.status >= 500 || xhr.getResponseHeader("X-Offline-Page") === "1";
    return away && !!window.outboxOffer && window.outboxOffer(link);
  }
  function plainPage(xhr, href) {
    return xhr.readyState === 4 && xhr.status === 200 && xhr.responseURL === new URL(href, window.location.href).href &&
      !/^hx-/im.test(xhr.getAllResponseHeaders());
  }

  // No preload (the extension fetches a link on touchstart) of a step already here, nor of a
  // page fetched ahead (its answer is here or on its way).
  ["touchstart", "mousedown"].forEach(function (type) {
    window.addEventListener(type, function (event) {
      var link = event.target.closest && event.target.closest("a[href]");
      if (stepOf(link) || (link && fresh(preloads[link.getAttribute("href")]))) event.stopPropagation();
    }, { capture: true, passive: true });
  });

  // Back or forward to a step htmx has no copy of: the bundle's, instead of asking the server.
  document.addEventListener("htmx:historyCacheMiss", function (event) {
    var step = bundle && bundle.steps[event.detail.path];
    if (!step) return;
    event.preventDefault();
    show(step);
    currentPath(event.detail.path);
  });
})();
