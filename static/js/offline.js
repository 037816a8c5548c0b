// One outbox for the hands a phone records (docs/offline.md). 确认 on a record preview, online or
// not, keeps the form's fields, its address, the hand's title and amounts as the preview showed them
// (the button's data-facts and data-amounts) in localStorage under the game's token, paints the game
// page at once with the hand as a 「待同步」 row, and sends it: in the order tapped, one at a time,
// with queued=1. Any failure (no network, a refused connection, a timeout, a 5xx, a proxy's page)
// keeps it and says so; it is sent again every few seconds and at once at a sign of life (a poll
// that answers, the page shown again, the network back). The server records a queued hand after
// whatever is there now and answers JSON (scoring/table/offline.py record_queued); the form token
// makes a resend harmless. A hand the server refuses stays, with its reason, 删除 and 修改.
// A hand the server holds (another phone recorded the same hand meanwhile, or it scores
// differently now: scoring/table/kept.py) stays too, with the server's card on the game page;
// the answer tapped on it is kept with the hand and sent like it, once.
// The other writes of the table go through the same queue, in the same order: 下注, 接着打 and
// 核对 (and 撤回) at every tap, 修改, 作废 and 换人/换位 at their 确认 (these only when nothing
// waits ahead: their preview was drawn without the kept hands). Each is kept with its own form
// token, painted as a 「待同步」 row with what it is, and sent with queued=1; the server answers
// JSON and does it once (scoring/table/outbox.py). A write the server refuses keeps its row with
// the reason (and where to fix it) but holds nothing up behind it: it changed nothing.
(function () {
  "use strict";
  var PREFIX = "yiwu-offline:";
  var FORM_TOKEN = /^[A-Za-z0-9_-]{1,40}$/;  // scoring/table/pages.py FORM_TOKEN, never empty
  var RETRY = 2500;  // a kept hand is tried again this often, steadily, and at once at a sign of life
  var TIMEOUT = 8000;  // a send that has no answer by then is a failure: the hand stays, tried again
  var words = {};
  try {
    words = JSON.parse(document.querySelector('meta[name="offline-words"]').content);
  } catch (error) { /* a page without them says the keys */ }

  function say(key, n) { return (words[key] || key).replace("{n}", n); }
  window.outboxTimes = [];  // tap-to-paint of 确认 (and of a write's tap), ms each (performance.now), for a bench to read
  function offline() { return navigator.onLine === false; }
  function pathOf(url) { return new URL(url, window.location.href).pathname; }
  function tokenOf(path) { var m = /^\/g\/([^/]+)\//.exec(path); return m ? m[1] : null; }
  function isRecord(path) { return /^\/g\/[^/]+\/record$/.test(path); }
  // The table's writes the outbox carries: at every tap, or only at 确认 of a previewed change.
  var TAPPED = /^\/g\/[^/]+\/(bet|play-on|checks|hand\/\d+\/check(\/back)?)$/;
  var PREVIEWED = /^\/g\/[^/]+\/(hand\/\d+\/(edit|void)|seating)$/;  // (撤销上一局 is 作废's page)
  function writeOf(path, submitter) {
    if (TAPPED.test(path)) return "tapped";
    if (!PREVIEWED.test(path)) return null;
    if (/\/(edit|seating)$/.test(path)) return submitter && submitter.name === "confirm" ? "previewed" : null;
    return "previewed";  // 作废 posts only its 确认
  }
  function isWrite(item) { return item.kind === "write"; }
  // What still goes out before a new write: all but the writes refused (they changed nothing).
  // (A write the budget turned back keeps its place, as a hand does: it goes at 再发一次.)
  function ahead(items) { return items.filter(function (i) { return !(isWrite(i) && i.reason && !i.budget); }); }
  function gameUrl(token) { return "/g/" + token + "/"; }
  function onGamePage() { return !!document.getElementById("hands") && tokenOf(window.location.pathname) !== null && /^\/g\/[^/]+\/$/.test(window.location.pathname); }

  // What needs the network, as the person is told when there is none: a step of the record
  // flow, or a change (修改, 作废, 核对, 换人/换位, 下注, 结算).
  function needs(path) {
    if (isRecord(path)) return "step";
    if (/^\/g\/[^/]+\/(hand\/\d+\/(edit|void|check)|undo|seating|bet|settle|finish|reopen|carry|transfer\/)/.test(path)) return "change";
    return null;
  }

  // ---- the queue, per game, in localStorage ----
  function load(token) {
    try { return JSON.parse(window.localStorage.getItem(PREFIX + token)) || []; } catch (error) { return []; }
  }
  function save(token, items) {
    try {
      if (items.length) window.localStorage.setItem(PREFIX + token, JSON.stringify(items));
      else window.localStorage.removeItem(PREFIX + token);
      return true;
    } catch (error) {  // storage full or refused (a private tab): nothing more can be kept
      return false;
    }
  }
  // The seqs this tab's own hands became, per game (the last 200, for as long as the tab lives): sent
  // with every kept hand as `mine`, so a hand whose preview was drawn before the phone's previous hand
  // landed (confirmed once that hand had left the queue) is never asked about that hand.
  var MINE = "yiwu-mine:";
  function ownSeqs(token) {
    try { return JSON.parse(window.sessionStorage.getItem(MINE + token)) || []; } catch (error) { return []; }
  }
  function addOwnSeq(token, seq) {
    var seqs = ownSeqs(token).filter(function (s) { return s !== seq; }).concat([seq]).slice(-200);
    try { window.sessionStorage.setItem(MINE + token, JSON.stringify(seqs)); } catch (error) { /* full: the queue's own list still goes */ }
  }

  function newToken() {
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return window.btoa(String.fromCharCode.apply(null, bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  // Keeps one confirmed hand: its fields (with 确认 and a form token), where it posts, its title
  // and the amounts its preview showed; the item kept (null when it could not be).
  function keep(action, pairs, facts, amounts, quiet, kind) {
    var path = pathOf(action), token = tokenOf(path);
    if (!token) return null;
    var fields = pairs.filter(function (p) {
      return typeof p[1] === "string" && ["queued", "csrfmiddlewaretoken", "answer", "agreed", "mine"].indexOf(p[0]) < 0;
    });
    var formToken = (fields.find(function (p) { return p[0] === "form_token"; }) || [])[1];
    if (!formToken || !FORM_TOKEN.test(formToken)) {
      formToken = newToken();
      fields = fields.filter(function (p) { return p[0] !== "form_token"; }).concat([["form_token", formToken]]);
    }
    if (!kind && !fields.some(function (p) { return p[0] === "confirm"; })) fields.push(["confirm", "1"]);
    var items = load(token);
    var item = items.filter(function (i) { return i.formToken === formToken; })[0];
    if (!item) {
      item = { action: path, fields: fields, facts: facts || "", amounts: amounts || null, formToken: formToken,
        at: Date.now(), waited: offline() };
      if (kind) item.kind = kind;
      items.push(item);
      if (!save(token, items)) {
        if (!quiet) toast(say("unsaved"), "danger");
        return null;
      }
    }
    return item;
  }

  function amountsOf(button) {
    try {
      var amounts = JSON.parse(button.getAttribute("data-amounts") || "null");
      return Array.isArray(amounts) ? amounts : null;
    } catch (error) {
      return null;
    }
  }

  function toast(text, tone, synced) {
    var flash = document.getElementById("flash");
    if (!flash) return;
    var alert = document.createElement("div");
    alert.className = "alert alert-" + (tone || "warning") + " py-2 shadow offline-said";
    alert.setAttribute("role", "alert");
    if (synced) alert.setAttribute("data-synced", "");
    alert.textContent = text;
    flash.replaceChildren(alert);
    if (window.fadeFlash) window.fadeFlash();  // a success goes by itself, as the server's do (app.js)
  }

  // What the sending said is news of the very hands that the poll it asks for brings: it is said
  // once that poll's answer has put them on the page (its empty flash, templates/scoring/_live.html,
  // first), with the amounts, and goes with the next poll that brings newer hands, as a write's
  // flash does; or after 4 s when no poll brings them. A tap puts it away, a success fades by itself.
  var afterPoll = null, afterPollTimer = null;
  function sayAfterPoll(text, tone, seqs) {
    afterPoll = { text: text, tone: tone, seqs: seqs };
    window.clearTimeout(afterPollTimer);
    afterPollTimer = window.setTimeout(function () { sayPolled(true); }, 4000);
  }
  function sayPolled(anyway) {
    var said = afterPoll;
    if (!said || !anyway && !said.seqs.every(function (seq) { return document.getElementById("hand-" + seq); })) return;
    window.clearTimeout(afterPollTimer);
    afterPoll = null;
    toast(said.text, said.tone, true);
  }

  // The preview page once its hand is kept: the confirm button gives way to what happened.
  function showKept(form, submitter) {
    var panel = form && (form.querySelector("#preview-panel") || form);
    if (!panel) return;
    var button = submitter || panel.querySelector('button[name="confirm"]');
    var note = document.createElement("div");
    note.className = "alert alert-info py-2 mb-2 offline-kept";
    note.setAttribute("role", "status");
    note.textContent = say((submitter ? "write_" : "") + (offline() ? "kept" : "kept_sending")) + " ";
    var back = document.createElement("a");
    back.href = gameUrl(tokenOf(pathOf(form.action)));
    back.textContent = say("back");
    note.appendChild(back);
    if (button) button.replaceWith(note); else panel.prepend(note);
    if (window.htmx) window.htmx.process(note);  // boosted like every link of the page
    note.tabIndex = -1;
    note.focus({ preventScroll: true });  // the button it replaces had the focus
  }

  // 确认 of a new hand (kind null), or a write of the table (kind "write": 下注, 核对 …, or 确认 of
  // 修改/作废/换人换位), online or not: kept, painted on the game page at once (a write confirmed on
  // its own page shows the game page first, as a hand does), sent behind whatever waits. The form
  // keeps the token, so a second tap on the same button is the same hand or write; a token the
  // outbox had to add (`data-outbox`) goes once its write is answered. When the phone cannot keep
  // it (storage refused) and is online, the form posts as it would without JS.
  var paintedAt = -1e9, tappedAt = null;
  function tapped(event, form, submitter, kind) {
    var start = window.performance.now();
    var path = pathOf(form.getAttribute("action") || window.location.href);
    var data = new FormData(form);
    if (submitter && submitter.name) data.append(submitter.name, submitter.value);
    var amounts = submitter ? amountsOf(submitter) : null;
    var item = keep(path, Array.from(data.entries()), factsOf(form, submitter, path), amounts, !offline(), kind);
    if (!item && !offline()) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    if (!item) return;
    var field = form.querySelector('input[name="form_token"]');
    if (!field) {
      field = element("input");
      field.type = "hidden";
      field.name = "form_token";
      field.setAttribute("data-outbox", "");
      form.appendChild(field);
    }
    field.value = item.formToken;
    if (submitter) tappedAt = submitter.getBoundingClientRect();
    if (!toGame(tokenOf(path), form, kind ? submitter : null)) paintedAt = start;
    if (document.querySelector('.pending-row[data-form-token="' + item.formToken + '"]')) {
      window.outboxTimes.push(Math.round(window.performance.now() - start));
    }
    flush();
  }

  // What a row says it is: the button's data-facts (the server's words: a hand's title); for a
  // write without them, the kind of write and the button's own words, with the hand's 第N局 when
  // it is on a hand's row.
  function factsOf(form, submitter, path) {
    var named = submitter && submitter.getAttribute("data-facts") || form.getAttribute("data-facts");
    if (named || isRecord(path)) return named || "";
    var kind = /\/bet$/.test(path) ? "w_bet" : /\/play-on$/.test(path) ? "w_play_on"
      : /\/check\/back$/.test(path) ? "w_back" : /\/(checks|check)$/.test(path) ? "w_check"
      : /\/void$/.test(path) ? "w_void" : /\/edit$/.test(path) ? "w_edit" : "w_seating";
    var strip = form.closest("[id^='checks-']");  // a hand's 核对 strip, under its row
    var row = strip ? document.getElementById("hand-" + strip.id.slice(7)) : form.closest("[id^='hand-']");
    var number = row && row.querySelector(".number");
    var text = (submitter ? submitter.textContent : "").replace(/\s+/g, " ").trim();
    return [say(kind), number ? number.textContent.trim() : "", text].filter(Boolean).join(" · ");
  }

  // What the phone says of a write that waits behind its kept hands, or needs the network.
  document.addEventListener("submit", function (event) {
    var form = event.target, submitter = event.submitter;
    var path = pathOf(form.getAttribute("action") || window.location.href);
    if (isRecord(path) && submitter && submitter.name === "confirm") {
      tapped(event, form, submitter, null);
      return;
    }
    if ((form.method || "").toLowerCase() !== "post" || !tokenOf(path)) return;
    var write = writeOf(path, submitter);
    var waiting = needs(path) === "change" ? ahead(load(tokenOf(path))) : [], behind = waiting.length;
    if (write === "tapped" || write === "previewed" && !behind) {
      tapped(event, form, submitter, "write");
      return;
    }
    if (offline() || behind) {
      event.preventDefault();
      event.stopImmediatePropagation();
      toast(offline() ? say(needs(path) || "step") : say("behind" + (waiting.some(isWrite) ? "_w" : ""), behind));
      if (behind) wake();
    }
  }, true);

  // A double tap on 确认: the second tap, where 确认 was, lands on the game page painted under it,
  // not on a link there (a tap elsewhere ends this).
  document.addEventListener("click", function (event) {
    var at = tappedAt, near = at && event.clientX >= at.left - 24 && event.clientX <= at.right + 24 &&
      event.clientY >= at.top - 24 && event.clientY <= at.bottom + 24;
    if (!event.isTrusted) return;
    if (near && window.performance.now() - paintedAt < 400) {
      event.preventDefault();
      event.stopImmediatePropagation();
    } else {
      tappedAt = null;
    }
  }, true);

  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("a[href]");
    if (!offline() || !link || link.origin !== window.location.origin) return;
    var kind = needs(link.pathname);
    if (!kind) return;  // another page the phone may hold (the service worker's): let it try
    if (kind === "step" && window.stepsShows && window.stepsShows(link)) return;  // a question sent ahead
    event.preventDefault();
    event.stopImmediatePropagation();
    if (kind === "step" && offerLeaf(link)) return;
    toast(say(kind));
  }, true);

  // ---- a hand kept from a link of the record flow ----
  // With no network, a link past the questions (to a preview or a sheet, which only the server
  // makes) that the bundle of steps names (static/js/steps.js, scoring/table/views/steps.py) shows the
  // bundle's confirm screen with the hand's title as the server wrote it; 记下 keeps the hand as
  // 确认 on a preview would, its answers the link's own plus from_link=1 (the server fills in
  // the bets placed on the game page, as the preview would have) and the next hand's seq. A link
  // whose answers are no whole hand yet (a sheet to fill) says so.
  function offerLeaf(link) {
    var href = link.getAttribute("href");
    var leaf = window.stepsLeaf && window.stepsLeaf(href);
    if (!leaf) return false;
    if (!leaf.facts || !leaf.screen) toast(say("whole"));
    else showConfirm(href, leaf);
    return true;
  }

  var shelved = null;  // what <main> showed, hidden under the confirm screen: 取消 shows it again
  function showConfirm(href, leaf) {
    var main = document.getElementById("main");
    if (!main) return;
    unshelve();
    var flash = document.getElementById("flash");
    var nodes = Array.from(main.children).filter(function (node) {
      return node !== flash && node.id !== "offline-banner" && !node.hasAttribute("data-shelved");
    });
    shelved = { nodes: nodes, scroll: window.scrollY };
    var screen = element("div", "offline-confirm-screen");
    screen.appendChild(leaf.screen.content.cloneNode(true));
    screen.querySelector("[data-offline-facts]").textContent = leaf.facts;
    var why = screen.querySelector("#offline-confirm-question");
    if (why && !offline()) why.textContent = say("screen_server");  // the network is up: the server is not there
    screen.setAttribute("data-href", href);
    screen.setAttribute("data-next-seq", leaf.nextSeq || "");
    nodes.forEach(function (node) { node.setAttribute("data-shelved", ""); });  // in place: a poll still lands
    main.appendChild(screen);
    if (flash) flash.replaceChildren();
    window.scrollTo(0, 0);
    var question = screen.querySelector(".question");
    if (question) question.focus({ preventScroll: true });
  }

  function unshelve() {
    var screen = document.querySelector(".offline-confirm-screen");
    if (screen) screen.remove();
    if (!shelved) return;
    var scroll = shelved.scroll;
    shelved.nodes.forEach(function (node) { node.removeAttribute("data-shelved"); });
    shelved = null;
    window.scrollTo(0, scroll);
  }

  function keepLeaf(screen) {
    if (screen.hasAttribute("data-kept")) return;  // one tap, one hand
    var url = new URL(screen.getAttribute("data-href"), window.location.href);
    var pairs = Array.from(url.searchParams.entries()).filter(function (p) { return p[0] !== "v" && p[0] !== "from_link"; });
    pairs.push(["from_link", "1"]);
    if (screen.getAttribute("data-next-seq")) pairs.push(["next_seq", screen.getAttribute("data-next-seq")]);
    var stamp = screen.querySelector("[data-kept]");  // the table it is kept at, as the server signed it
    if (stamp) pairs.push(["kept", stamp.getAttribute("data-kept")]);
    if (!keep(url.pathname, pairs, screen.querySelector("[data-offline-facts]").textContent, null)) return;
    screen.setAttribute("data-kept", "");
    toGame(tokenOf(url.pathname));
    flush();  // online (a 5xx under the link): at once, like any hand in the outbox
  }

  // The game page once a hand is kept from a link: here already (流局 is tapped on it), or its
  // copy htmx keeps in this tab's history (left by a tap on a question); else a note with the way
  // back (a service worker may hold the page).
  function toGame(token, form, submitter) {
    if (onGamePage()) {
      unshelve();
    } else {
      var item = historyCopy(gameUrl(token));
      if (item && window.htmx) {
        shelved = null;
        if (window.saveHtmxHistory) window.saveHtmxHistory();  // the page left, as htmx keeps it (app.js)
        window.htmx.swap(document.body, item.content, { swapStyle: "innerHTML", swapDelay: 0, settleDelay: 0 });
        document.title = item.title;
        window.history.pushState({ htmx: true }, "", gameUrl(token));
        try { window.sessionStorage.setItem("htmx-current-path-for-history", gameUrl(token)); } catch (error) { /* private mode */ }
        window.scrollTo(0, 0);
        // The copy is the page as it was left (its tiles, bets, version and so its questions):
        // the poll brings the table as it is now at once, the hand's own row after it lands.
        var poller = document.getElementById("poller");
        if (poller && !offline()) {  // once the page is painted (the paint first)
          window.requestAnimationFrame(function () {
            window.setTimeout(function () { if (document.body.contains(poller)) window.htmx.trigger(poller, "poll-now"); }, 0);
          });
        }
      } else if (form) {  // no copy of the game page: the preview says it is kept, and goes there once sent
        showKept(form, submitter);
        return true;
      } else {
        var keepButton = document.querySelector(".offline-confirm-screen [data-offline-keep]");
        if (keepButton) {
          var note = element("div", "alert alert-info py-2 mb-2 offline-kept", say("kept") + " ");
          note.setAttribute("role", "status");
          var back = element("a", "", say("back"));
          back.href = gameUrl(token);
          note.appendChild(back);
          keepButton.replaceWith(note);
          var cancel = note.parentNode.querySelector("[data-offline-cancel]");
          if (cancel) cancel.remove();  // kept: nothing to cancel here (删除 is on its row)
          if (window.htmx) window.htmx.process(note);
          note.tabIndex = -1;
          note.focus({ preventScroll: true });
        }
        draw();
        return;
      }
    }
    draw();
    if (offline()) toast(say(submitter ? "write_kept_short" : "kept_short"), "info");
    else if (form) document.querySelectorAll("#flash .alert").forEach(function (old) { old.remove(); });
  }

  function historyCopy(url) { return window.htmxHistoryCopy ? window.htmxHistoryCopy(url) : null; }

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-offline-keep], [data-offline-cancel]");
    var screen = button && button.closest(".offline-confirm-screen");
    if (!screen) return;
    if (button.hasAttribute("data-offline-cancel")) unshelve();
    else keepLeaf(screen);
  });

  // The network failed under a request that looked online, or the server answered with an error
  // (a 5xx, a proxy's page while the app restarts): a link past the questions offers to keep the
  // hand; a write says it was not made and keeps what was typed (htmx swaps nothing); anything else
  // says it needs the network instead of doing nothing. Polls and previews fail quietly.
  function failedRequest(event, server) {
    var detail = event.detail || {}, config = detail.requestConfig || {}, elt = detail.elt;
    if (elt && elt.hasAttribute && (elt.hasAttribute("data-poll") || elt.hasAttribute("data-preview"))) return;
    if (server && (!detail.xhr || detail.xhr.status < 500)) return;
    var path = pathOf(config.path || detail.pathInfo && detail.pathInfo.requestPath || window.location.href);
    if (elt && elt.matches && elt.matches("a[href]") && isRecord(path) && offerLeaf(elt)) return;
    var write = (config.verb || "").toLowerCase() === "post";
    toast(write ? say(server ? "write_server" : "write_network") : server ? say("page_server") : say(needs(path) || "step"),
      write ? "danger" : "warning");
  }
  document.addEventListener("htmx:sendError", function (event) { failedRequest(event, false); });
  // A table write htmx sends (下注, 核对, 修改, 作废 …) or a step of the record flow waits at most
  // PAGE_TIMEOUT for its answer, then says so (never a tap that hangs with nothing said): a write,
  // that the server did not answer in time and what was typed is still there; a link past the
  // questions offers to keep the hand, as with no network. Polls keep htmx's own (none: each is
  // dropped while one is on its way).
  var PAGE_TIMEOUT = 10000;
  document.addEventListener("htmx:configRequest", function (event) {
    var config = event.detail || {}, elt = config.elt || event.target;
    if (config.timeout || config.headers && config.headers["HX-Preloaded"] === "true") return;
    if (elt && elt.hasAttribute && (elt.hasAttribute("data-poll") || elt.hasAttribute("data-preview"))) return;
    var path = pathOf(config.path || window.location.href);
    if (tokenOf(path) && ((config.verb || "").toLowerCase() === "post" || isRecord(path))) config.timeout = PAGE_TIMEOUT;
  });
  document.addEventListener("htmx:timeout", function (event) {
    var detail = event.detail || {}, config = detail.requestConfig || {}, elt = detail.elt;
    if (!config.timeout) return;  // not one timed here
    var path = pathOf(config.path || detail.pathInfo && detail.pathInfo.requestPath || window.location.href);
    if (elt && elt.matches && elt.matches("a[href]") && isRecord(path) && offerLeaf(elt)) return;
    var write = (config.verb || "").toLowerCase() === "post";
    toast(write ? say("write_slow") : say("page_server"), write ? "danger" : "warning");
  });
  document.addEventListener("htmx:responseError", function (event) { failedRequest(event, true); });

  // A service worker answers a page it does not hold with its offline page (templates/pwa/sw.js):
  // a step of the record flow says what it says with no network instead of that page.
  document.addEventListener("htmx:beforeSwap", function (event) {
    // htmx 2: detail.elt is the swap's target (the body for a boosted link); the link that asked
    // is the request's own element.
    var detail = event.detail || {}, xhr = detail.xhr;
    var elt = (detail.requestConfig && detail.requestConfig.elt) || detail.elt;
    if (!xhr || xhr.getResponseHeader("X-Offline-Page") !== "1") return;
    var path = pathOf(detail.pathInfo && detail.pathInfo.requestPath || window.location.href);
    if (!isRecord(path)) return;
    detail.shouldSwap = false;
    if (elt && elt.matches && elt.matches("a[href]") && offerLeaf(elt)) return;
    toast(say("step"));
  });

  // ---- sending, in order, each once ----
  var sending = false, timer = null, said = [], landed = [];

  function csrf() {
    var headers = document.body && document.body.getAttribute("hx-headers");
    try { return JSON.parse(headers)["X-CSRFToken"]; } catch (error) { return ""; }
  }

  function later() {
    if (timer) return;
    timer = window.setTimeout(function () { timer = null; flush(); }, RETRY);
  }

  // A hand the phone sends by itself (not one waiting for the person: refused, or held unanswered).
  function sendable(item) { return !item.reason && !(item.held && !item.answer); }

  function flush() {
    var token = tokenOf(window.location.pathname);
    if (!token || sending) return;
    var items = ahead(load(token)), first = items[0];  // a refused write waits for nobody
    if (!first || !sendable(first)) { done(token); return; }  // the person's turn
    if (offline()) { draw(); return; }  // the `online` event sends it
    if (timer) { window.clearTimeout(timer); timer = null; }
    sending = true;
    draw();
    var body = new URLSearchParams();
    first.fields.forEach(function (p) { body.append(p[0], p[1]); });
    body.append("queued", "1");
    body.append("waited", first.waited ? "1" : "0");  // "0": sent at once, said as a hand just recorded
    var mine = (first.mine || []).concat(ownSeqs(token).filter(function (s) { return (first.mine || []).indexOf(s) < 0; }));
    if (mine.length) body.append("mine", mine.slice(-200).join(","));
    if (first.answer) {
      body.append("answer", first.answer);
      body.append("agreed", first.held.agreed);
    }
    var stop = window.AbortController ? new window.AbortController() : null, slow = false;
    var clock = window.setTimeout(function () { slow = true; if (stop) stop.abort(); }, TIMEOUT);
    window.fetch(first.action, {
      method: "POST",
      body: body,
      credentials: "same-origin",
      headers: { "X-CSRFToken": csrf(), Accept: "application/json" },
      signal: stop ? stop.signal : undefined,
    }).then(function (response) {
      var json = /json/.test(response.headers.get("Content-Type") || "");
      var away = response.headers.get("X-Offline-Page") === "1";  // the service worker's page: no network
      return (json ? response.json() : Promise.reject()).then(function (body) { return { status: response.status, json: body }; },
        function () { return { status: response.status, json: null, away: away }; });
    }).then(function (answer) {
      window.clearTimeout(clock);
      if (slow) throw new Error("timeout");  // an answer after the phone gave up on it: the resend is told apart
      sending = false;
      var json = answer.json;
      if (json && json.ok) {
        said.push(json);
        if (typeof json.seq === "number" && !json.dropped) landed.push(Object.assign({}, first, { seq: json.seq, number: json.number, landedAt: Date.now() }));
        // The hands behind it were entered after it: what they passed was said with this one, and
        // the hand it is now (or, dropped, the hand it was the same as) is this phone's own.
        var seq = typeof json.seq === "number" ? json.seq : null;
        if (seq !== null) addOwnSeq(token, seq);
        forgetToken(first.formToken);
        save(token, load(token).filter(function (i) { return i.formToken !== first.formToken; }).map(function (i) {
          if (seq === null) return i;
          i.fields = i.fields.map(function (p) {
            return p[0] === "next_seq" && Number(p[1]) <= seq ? ["next_seq", String(seq + 1)] : p;
          });
          i.mine = (i.mine || []).concat([seq]).slice(-200);
          return i;
        }));
        flush();
      } else if (json && json.held) {
        hold(token, first, json);
      } else if (json && json.answer_refused) {  // no answer to the card: asked again, fresh
        change(token, first, function (i) { delete i.answer; delete i.held; i.note = json.reason; });
        flush();
      } else if (json && json.ok === false && answer.status < 500) {
        refuse(token, first, json.reason, json.budget, typeof json.url === "string" && json.url.indexOf("/g/") === 0 ? json.url : null);
      } else if (answer.status >= 400 && answer.status < 500 && answer.status !== 408) {
        // a page instead (the link gone, a form the server no longer takes): the reason is its status
        refuse(token, first, say("refused") + " (HTTP " + answer.status + ")");
      } else {  // a 5xx, a proxy's error page, a page where JSON was due: the server is not there yet
        failed(token, first, answer.away ? "network" : "server");
      }
    }).catch(function () {  // no network, a refused connection, or no answer in time
      window.clearTimeout(clock);
      sending = false;
      failed(token, first, slow ? "slow" : "network");
    });
  }

  // The hand was not sent: it stays, the phone says so on its row and the banner, and tries again
  // every few seconds (at once at a sign of life: wake()).
  function failed(token, item, trouble) {
    var first = !item.trouble;
    change(token, item, function (i) { i.trouble = trouble; i.waited = true; });
    draw();
    if (first) toast(say((isWrite(item) ? "write_kept_" : "kept_") + trouble), "warning");
    later();
  }

  function change(token, item, how) {
    save(token, load(token).map(function (i) {
      if (i.formToken === item.formToken) how(i);
      return i;
    }));
  }

  // The server holds the hand: its card waits on the game page for the person's answer.
  function hold(token, item, json) {
    change(token, item, function (i) {
      delete i.answer;
      delete i.trouble;
      i.held = { kind: json.held, card: json.card, agreed: json.agreed, reason: json.reason, badge: json.badge,
        sending: json.sending, later: json.later };
    });
    said.push({ quiet: true });
    done(token);
  }

  // A write's token the outbox put in its form, once the server has answered it: a tap on the same
  // button after that (the page not yet redrawn) is a new write, not the answered one again.
  function forgetToken(formToken) {
    document.querySelectorAll('input[name="form_token"][data-outbox]').forEach(function (field) {
      if (field.value === formToken) field.remove();
    });
  }

  function refuse(token, item, reason, budget, url) {
    reason = reason || say("refused");
    if (isWrite(item) && !budget) forgetToken(item.formToken);
    save(token, load(token).map(function (i) {
      return i.formToken === item.formToken
        ? Object.assign({}, i, { reason: reason, budget: !!budget, trouble: null, url: url || null }) : i;
    }));
    var colon = document.documentElement.lang === "en" ? ": " : "：";
    said.push({ message: say(isWrite(item) ? "not_done" : "refused") + colon + (item.facts ? item.facts + " · " : "") + reason,
      refused: true });
    if (isWrite(item) && !budget) flush();  // it changed nothing: what waits behind it goes on
    else done(token);
  }

  // The sending stopped (all sent, or at a refused hand): say what happened and show it. The
  // game page asks for its fresh content (the amounts); the preview a hand was kept on goes to
  // the game page, where the refused hand waits with its reason.
  function done(token) {
    draw();
    if (!said.length) return;
    var tone = said.some(function (json) { return json.refused; }) ? "danger"
      : said.some(function (json) { return json.moved || json.dropped || json.already; }) ? "info" : "success";
    var text = said.filter(function (json) { return !json.quiet; }).map(function (json) { return json.message; }).join(" ");
    var seqs = said.filter(function (json) { return json.ok && !json.dropped && typeof json.seq === "number"; })
      .map(function (json) { return json.seq; });
    said = [];
    if (onGamePage()) {
      if (text) sayAfterPoll(text, tone, seqs);
      var poller = document.getElementById("poller");
      if (poller && window.htmx) window.htmx.trigger(poller, "poll-now");
    } else if (document.querySelector(".offline-kept a")) {  // htmx takes the boosted link
      afterSwap = { text: text, tone: tone };
      document.querySelector(".offline-kept a").click();
    } else if (text) {
      toast(text, tone);
    }
  }

  // What to say once the game page a kept preview went back to is on screen.
  var afterSwap = null;
  function sayAfterSwap() {
    if (!afterSwap || !onGamePage()) return;
    if (afterSwap.text) toast(afterSwap.text, afterSwap.tone, true);
    afterSwap = null;
  }

  // ---- the game page: the banner and the 待同步 rows ----
  function element(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function draw() {
    var token = tokenOf(window.location.pathname);
    var main = document.getElementById("main");
    if (!token || !main) return;
    var items = load(token), live = ahead(items);
    var banner = document.getElementById("offline-banner");
    var show = offline() || live.length > 0;
    var w = live.some(isWrite) ? "_w" : "";  // 「N 项」 once a write is among them, else 「N 局」
    if (!show) {
      if (banner) banner.remove();
    } else {
      if (!banner) {
        banner = element("div", "offline-banner alert py-1 px-2 mb-2 small");
        banner.id = "offline-banner";
        banner.setAttribute("role", "status");
        var flash = document.getElementById("flash");
        main.insertBefore(banner, flash ? flash.nextSibling : main.firstChild);
      }
      var trouble = live[0] && live[0].trouble && !sending;
      banner.classList.toggle("is-offline", offline() || !!trouble);
      banner.textContent = offline() ? (live.length ? say("offline_n" + w, live.length) : say("offline"))
        : trouble ? say("failed_n" + w, live.length)
        : (sending ? say("sending") + " " : "") + say("waiting_n" + w, live.length);
    }
    drawRows(token, items);
    drawHeld(token, items, banner);
  }

  // The card of the hand the server holds (templates/table/_held_hand.html), under the banner on
  // the game page until it is answered; its answer, once tapped, goes with the hand.
  function drawHeld(token, items, banner) {
    var item = items.filter(function (i) { return i.held; })[0];
    var box = document.getElementById("held-hands");
    if (!item || !onGamePage() || !banner) {
      if (box) box.remove();
      return;
    }
    var fresh = !box || box.getAttribute("data-agreed") !== item.held.agreed;
    if (!box) {
      box = element("div", "held-hands");
      box.id = "held-hands";
      banner.after(box);
    }
    if (fresh) {
      box.innerHTML = item.held.card;  // the server's own card, kept with the hand
      box.setAttribute("data-form-token", item.formToken);
      box.setAttribute("data-agreed", item.held.agreed);
      if (window.htmx) window.htmx.process(box);
    }
    var note = box.querySelector(".held-note");
    if (note) note.textContent = item.answer ? (offline() ? item.held.later : item.held.sending) || "" : item.note || "";
    box.querySelectorAll("button[data-held-answer]").forEach(function (button) { button.disabled = !!item.answer; });
    if (fresh) {
      // What was said of the hand while it waited (「这一局已存在这台手机上…」) is old news now.
      document.querySelectorAll("#flash .offline-said:not([data-synced])").forEach(function (said) { said.remove(); });
      var question = box.querySelector(".question");
      var active = document.activeElement;
      var typing = active && /^(INPUT|SELECT|TEXTAREA)$/.test(active.tagName);  // never from under a person typing
      if (question && !typing) question.focus({ preventScroll: true });
      if (box.getBoundingClientRect().top < 0) box.scrollIntoView({ block: "start" });
    }
  }

  // An answer on the card: kept with the hand and sent at once (or once the network is back).
  // 丢掉 takes two taps, like 删除; 修改 opens the entry with the hand's answers and takes it out
  // of the queue (what is confirmed there is a new hand, as for a refused one).
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-held-answer]");
    var box = button && button.closest("#held-hands");
    var token = tokenOf(window.location.pathname);
    if (!box || !token) return;
    var formToken = box.getAttribute("data-form-token"), answer = button.getAttribute("data-held-answer");
    var item = load(token).filter(function (i) { return i.formToken === formToken; })[0];
    if (answer === "edit") {
      save(token, load(token).filter(function (i) { return i.formToken !== formToken; }));
      box.remove();
      return;  // the link goes on (htmx's boost)
    }
    event.preventDefault();
    if (!item || item.answer) return;
    if (button.hasAttribute("data-sure") && !button.dataset.armed) {
      button.dataset.armed = "1";
      button.textContent = button.getAttribute("data-sure");
      return;
    }
    change(token, item, function (i) { i.answer = answer; delete i.note; });
    draw();
    flush();
  });

  function drawRows(token, items) {
    var hands = onGamePage() && document.getElementById("hands");
    if (!hands) return;
    var box = hands.querySelector(".pending-rows");
    // A hand the server has is drawn, numbered, until the poll brings the server's own row of it.
    // (Not past a few polls: a page of earlier hands never shows it.)
    landed = landed.filter(function (item) {
      return !document.getElementById("hand-" + item.seq) && Date.now() - item.landedAt < 10000;
    }).slice(-20);
    items = landed.concat(items);
    if (!items.length) { if (box) box.remove(); return; }
    if (!box) {
      box = element("div", "pending-rows");
      var head = hands.querySelector(".hands-count");
      hands.insertBefore(box, head ? head.nextSibling : hands.firstChild);
    }
    var blocked = false;
    var head = true;
    box.replaceChildren.apply(box, items.map(function (item) {
      var state = item.seq ? " landed" : item.reason ? " refused" : item.held ? " held" : item.trouble ? " failing" : "";
      var done = isWrite(item) && item.reason && !item.budget;  // refused: it changed nothing, holds nothing up
      var row = element("div", "hand-row pending-row border-bottom py-2" + state + (isWrite(item) ? " write-row" : ""));
      row.setAttribute("data-form-token", item.formToken);
      var line = element("div", "d-flex flex-wrap align-items-center gap-1");
      if (item.seq) {
        line.appendChild(element("span", "fw-semibold me-1 number", say("number", item.number)));
      } else {
        var badge = done ? say("not_done") : item.reason ? say("refused") : item.held ? item.held.badge : say("pending");
        line.appendChild(element("span", "badge pending-badge me-1", badge));
      }
      var title = element("span", "me-auto title");
      title.appendChild(element("bdi", "", item.facts));
      line.appendChild(title);
      if (item.amounts && item.amounts.length) {  // as the preview showed them
        var nets = element("span", "nets small");
        item.amounts.forEach(function (a) {
          var net = element("span", "net");
          net.appendChild(element("bdi", "", String(a[0])));
          net.appendChild(document.createTextNode(" "));
          net.appendChild(element("b", String(a[2] || ""), String(a[1])));
          nets.appendChild(net);
        });
        line.appendChild(nets);
      }
      row.appendChild(line);
      if (item.seq) return row;
      var busy = head && sending && !item.trouble;
      if (!item.reason && !item.held) {
        var now = blocked ? say("waits") : offline() ? say("later_send")
          : item.trouble ? say("retry_" + item.trouble) : head && sending ? say("sending") : say("queued");
        if (!isWrite(item) && (!item.amounts || !item.amounts.length)) now = offline() && !blocked ? say("later") : say("later") + " · " + now;
        row.appendChild(element("div", "small mt-1 later" + (item.trouble && !blocked ? " text-danger" : " text-body-secondary"), now));
      }
      head = false;
      if (item.held) {  // its card, under the banner, asks the question
        blocked = true;
        row.appendChild(element("div", "small reason mt-1", item.held.reason));
        return row;
      }
      if (item.reason) {
        blocked = blocked || !done;
        row.appendChild(element("div", "small text-danger reason mt-1", item.reason));
      }
      var actions = element("div", "d-flex gap-2 mt-1");
      if (busy) return row;  // on its way: nothing to undo here (作废 once it is in)
      if (done) {  // nothing to lose: one tap puts it away; where to fix it, when the server named it
        var seen = element("button", "btn btn-outline-secondary btn-sm dismiss", say("dismiss"));
        seen.type = "button";
        seen.setAttribute("data-offline-dismiss", item.formToken);
        actions.appendChild(seen);
        if (item.url) {
          var open = element("a", "btn btn-outline-primary btn-sm open", say("open"));
          open.href = item.url;
          open.setAttribute("data-offline-edit", item.formToken);
          actions.appendChild(open);
        }
        row.appendChild(actions);
        return row;
      }
      var remove = element("button", "btn btn-outline-danger btn-sm delete", say("delete"));
      remove.type = "button";
      remove.setAttribute("data-offline-delete", item.formToken);
      actions.appendChild(remove);
      if (item.reason && item.budget) {  // the table's writes a minute: the same hand, a little later
        var again = element("button", "btn btn-outline-secondary btn-sm again", say("again"));
        again.type = "button";
        again.setAttribute("data-offline-again", item.formToken);
        actions.appendChild(again);
      } else if (item.reason && !isWrite(item)) {
        var edit = element("a", "btn btn-outline-secondary btn-sm edit", say("edit"));
        edit.href = item.action + "?" + new URLSearchParams(item.fields.filter(function (p) {
          return ["confirm", "form_token", "next_seq", "version", "kept"].indexOf(p[0]) < 0 && p[1] !== "";
        })).toString();
        edit.setAttribute("data-offline-edit", item.formToken);
        actions.appendChild(edit);
      }
      row.appendChild(actions);
      return row;
    }));
  }

  // 删除 takes two taps (a kept hand is gone for good); 修改 opens the entry with its facts and
  // leaves the queue: what is confirmed there is a new hand.
  document.addEventListener("click", function (event) {
    var again = event.target.closest && event.target.closest("[data-offline-again]");
    var token = tokenOf(window.location.pathname);
    if (!again || !token) return;
    var formToken = again.getAttribute("data-offline-again");
    change(token, { formToken: formToken }, function (i) { delete i.reason; delete i.budget; });
    wake();
  });

  // 知道了 on a write the server refused: it changed nothing, so one tap puts it away.
  document.addEventListener("click", function (event) {
    var seen = event.target.closest && event.target.closest("[data-offline-dismiss]");
    var token = tokenOf(window.location.pathname);
    if (!seen || !token) return;
    var formToken = seen.getAttribute("data-offline-dismiss");
    save(token, load(token).filter(function (i) { return i.formToken !== formToken; }));
    draw();
  });

  document.addEventListener("click", function (event) {
    var token = tokenOf(window.location.pathname);
    var remove = event.target.closest && event.target.closest("[data-offline-delete]");
    var edit = event.target.closest && event.target.closest("[data-offline-edit]");
    if (!token || !(remove || edit)) return;
    if (remove && !remove.dataset.sure) {
      remove.dataset.sure = "1";
      remove.textContent = say("delete_sure");
      return;
    }
    var formToken = (remove || edit).getAttribute(remove ? "data-offline-delete" : "data-offline-edit");
    save(token, load(token).filter(function (i) { return i.formToken !== formToken; }));
    draw();
    if (remove) flush();  // the ones behind a deleted refused hand may go now
  });

  // ---- when to try ----
  function wake() { draw(); flush(); }
  window.addEventListener("online", wake);
  window.addEventListener("focus", wake);
  // A poll that answers is the server back: a kept hand goes now, not at its next retry.
  document.addEventListener("htmx:afterRequest", function (event) {
    var elt = event.detail && event.detail.elt, xhr = event.detail && event.detail.xhr;
    if (!elt || !elt.hasAttribute || !elt.hasAttribute("data-poll") || !xhr || xhr.status < 200 || xhr.status >= 400) return;
    var token = tokenOf(window.location.pathname), first = token && load(token)[0];
    if (first && first.trouble && !sending) flush();
  });
  window.addEventListener("offline", draw);
  window.addEventListener("pageshow", wake);
  window.addEventListener("storage", function (event) { if (event.key && event.key.indexOf(PREFIX) === 0) draw(); });
  document.addEventListener("visibilitychange", function () { if (!document.hidden) wake(); });
  document.addEventListener("DOMContentLoaded", wake);
  // A swap (a poll's fresh list, a boosted page) drops the rows: they are drawn again.
  document.addEventListener("htmx:afterSettle", function () { draw(); sayAfterSwap(); sayPolled(false); });
  document.addEventListener("htmx:oobAfterSwap", function (event) {
    if (event.detail.target && event.detail.target.id === "hands") draw();
  });
})();
