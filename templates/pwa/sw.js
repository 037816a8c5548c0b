{% autoescape off %}{% comment %}
The service worker (scoring/pwa/views.py serves it at /sw.js): the app with a weak or no signal.
- Static files: from the phone once stored (their names are fingerprinted), the network otherwise.
- Pages (PAGES: the home page and every game page): the network first; if it has not answered in
  WAIT_MS, or fails, the copy of that page as this phone last saw it, marked as such; a page
  never seen gets the offline page, which lists the pages kept. Each page the network answers
  is kept (at most KEEP_PAGES). htmx's boosted links and back gestures are whole pages too
  (scoring/partial.py); its other requests (a part of a page) and every POST pass untouched.
- KEPT: other GETs kept network-first the same way (a step bundle).
The pages hold edit links and are sent `private, no-store`: they are kept here, on this phone,
for its own use, and never served while the network answers in time.
(This comment stays on the server: the phones get the script without it.)
{% endcomment %}"use strict";
var VERSION = {{ version }};
var SHELL = {{ shell }};
var OFFLINE_URL = {{ offline_url }};
var STATIC_URL = {{ static_url }};
var STATIC_FIRST = {{ static_first }};
var PAGES = [/^\/$/, /^\/g\/[^/]+\//];
var KEPT = [/^\/g\/[^/]+\/steps/];
var GAME_PAGE = /^\/g\/[^/]+\/$/;  // what the offline page lists
var WAIT_MS = 4000;  // one bar of signal
var KEEP_PAGES = 60;
var SHELL_CACHE = "shell-" + VERSION;
var PAGE_CACHE = "pages-1";  // kept across releases: the table's pages as last seen

function matches(patterns, path) {
  return patterns.some(function (pattern) { return pattern.test(path); });
}

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches.open(SHELL_CACHE)
      .then(function (cache) { return cache.addAll(SHELL.concat([OFFLINE_URL])); })
      .then(function () { return self.skipWaiting(); })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys()
      .then(function (names) {
        return Promise.all(names.filter(function (name) {
          return name !== SHELL_CACHE && name !== PAGE_CACHE;
        }).map(function (name) { return caches.delete(name); }));
      })
      .then(keepOpenPages)
      .then(function () { return self.clients.claim(); })
  );
});

// The page that registered this worker loaded before it: kept now, so that it opens offline too
// (one more request for it, on the first visit only).
function keepOpenPages() {
  return self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (windows) {
    return Promise.all(windows.map(function (client) {
      if (!matches(PAGES, new URL(client.url).pathname)) return null;
      return fetch(client.url, { credentials: "same-origin" }).then(function (response) {
        if (response.ok && (response.headers.get("Content-Type") || "").indexOf("text/html") === 0) {
          return keep(PAGE_CACHE, client.url, response, true);
        }
        return null;
      }).catch(function () { return null; });
    }));
  });
}

// A page hands over what it fetched before this worker took it over (static/js/steps.js: the
// bundle of steps), to be kept as if it had come through here: not fetched a second time.
self.addEventListener("message", function (event) {
  var data = event.data || {};
  if (typeof data.keep !== "string" || typeof data.body !== "string") return;
  var url = new URL(data.keep, self.location.href);
  if (url.origin !== self.location.origin || !matches(KEPT, url.pathname)) return;
  var response = new Response(data.body, { headers: { "Content-Type": "text/html; charset=utf-8" } });
  event.waitUntil(keep(PAGE_CACHE, url.href, response, false));
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.indexOf(STATIC_URL) === 0) {
    event.respondWith(STATIC_FIRST ? staticFirst(request) : networkFirst(request, SHELL_CACHE, false));
    return;
  }
  var wholePage = request.mode === "navigate" || request.headers.get("HX-Boosted") === "true" ||
    request.headers.get("HX-History-Restore-Request") === "true";
  if (wholePage && matches(PAGES, url.pathname)) {
    event.respondWith(networkFirst(request, PAGE_CACHE, true).catch(function () { return offlinePage(); }));
  } else if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(function () { return offlinePage(); }));
  } else if (matches(KEPT, url.pathname)) {
    event.respondWith(networkFirst(request, PAGE_CACHE, false));
  }
});

function staticFirst(request) {
  return caches.match(request).then(function (kept) {
    return kept || fetch(request).then(function (response) {
      if (response.ok) {
        var copy = response.clone();
        caches.open(SHELL_CACHE).then(function (cache) { return cache.put(request, copy); });
      }
      return response;
    });
  });
}

// The network's answer if it comes within WAIT_MS (kept for later when it is a page's 200), else
// the kept copy, else whatever the network answers in the end. Rejects when both fail.
function networkFirst(request, cacheName, isPage) {
  var key = request.url;
  var network = fetch(request).then(function (response) {
    var type = response.headers.get("Content-Type") || "";
    if (response.ok && response.type === "basic" && (!isPage || type.indexOf("text/html") === 0)) {
      keep(cacheName, key, response.clone(), isPage);
    }
    return response;
  });
  var late = new Promise(function (resolve) { setTimeout(resolve, WAIT_MS); });
  var kept = function () {
    return caches.open(cacheName).then(function (cache) {
      return cache.match(key, { ignoreVary: true }).then(function (copy) {
        return copy || (isPage && isStart(key) ? lastGame(cache) : undefined);
      });
    }).then(function (copy) { return copy && isPage ? marked(copy) : copy; });
  };
  return Promise.race([network, late.then(function () { return "late"; })]).then(function (first) {
    if (first !== "late") return first;
    return kept().then(function (copy) { return copy || network; });
  }, function (error) {
    return kept().then(function (copy) { if (copy) return copy; throw error; });
  });
}

// The app's start (its manifest's start_url, /?from=app) reopens the game in play: offline, the
// game page kept last.
function isStart(key) {
  var url = new URL(key);
  return url.pathname === "/" && url.searchParams.get("from") === "app";
}

function lastGame(cache) {
  return cache.keys().then(function (keys) {
    var games = keys.filter(function (key) { return GAME_PAGE.test(new URL(key.url).pathname); });
    return games.length ? cache.match(games[games.length - 1]) : cache.match(new URL("/", self.location).href);
  });
}

// Stored under its address alone (no request headers: htmx's and a navigation's are the same
// page), with the time it was kept; the oldest page goes past KEEP_PAGES.
function keep(cacheName, key, response, isPage) {
  return response.blob().then(function (body) {
    var headers = new Headers(response.headers);
    headers.set("X-Kept-At", String(Date.now()));
    headers.delete("Content-Encoding");  // the body is kept as read, decoded
    headers.delete("Content-Length");
    return caches.open(cacheName).then(function (cache) {
      return cache.delete(key, { ignoreVary: true })
        .then(function () { return cache.put(key, new Response(body, { status: response.status, headers: headers })); })
        .then(function () { return isPage ? cache.keys() : []; })
        .then(function (keys) {
          return Promise.all(keys.slice(0, Math.max(0, keys.length - KEEP_PAGES)).map(function (old) { return cache.delete(old); }));
        });
    });
  }).catch(function () { /* full storage: the page still shows, it is just not kept */ });
}

// A kept page, said to be one: an empty line above <main> that static/js/app.js fills with when it
// was kept (inside the body, which is what htmx swaps in for a boosted link).
function marked(copy) {
  return copy.text().then(function (text) {
    var at = Number(copy.headers.get("X-Kept-At")) || 0;
    var headers = new Headers(copy.headers);
    headers.delete("Content-Length");
    var line = '<div class="kept-copy" role="status" data-kept-at="' + at + '" hidden></div>';
    return new Response(text.replace("<main", line + "<main"), { status: 200, headers: headers });
  });
}

// The offline page with a link to each game page kept, the newest first.
function offlinePage() {
  return caches.match(OFFLINE_URL).then(function (page) {
    if (!page) return Response.error();
    return Promise.all([page.text(), keptPages()]).then(function (parts) {
      var text = parts[0], items = parts[1];
      if (items.length) {
        text = text.replace("<p data-none", "<p hidden data-none")
          .replace("data-kept></ul>", "data-kept>" + items.join("") + "</ul>");
      }
      var headers = new Headers(page.headers);  // its Content-Security-Policy with it
      headers.set("X-Offline-Page", "1");  // static/js/offline.js: a step of the record flow says so instead
      headers.delete("Content-Encoding");
      headers.delete("Content-Length");
      return new Response(text, { status: 200, headers: headers });
    });
  });
}

function twoDigits(number) {
  return String(number).padStart(2, "0");
}

function keptPages() {
  return caches.open(PAGE_CACHE).then(function (cache) {
    return cache.keys().then(function (keys) {
      var games = keys.filter(function (key) { return GAME_PAGE.test(new URL(key.url).pathname); }).reverse();
      return Promise.all(games.map(function (key) {
        return cache.match(key).then(function (copy) {
          return copy.text().then(function (text) {
            var title = (/<title>([^<]*)<\/title>/.exec(text) || [])[1] || new URL(key.url).pathname;
            var at = new Date(Number(copy.headers.get("X-Kept-At")));
            var when = [at.getMonth() + 1, at.getDate()].map(twoDigits).join("-") + " " +
              [at.getHours(), at.getMinutes()].map(twoDigits).join(":");
            var href = new URL(key.url);
            return '<li><a class="back-link" href="' + href.pathname + href.search + '">' + title + "</a> " +
              '<span class="small text-body-secondary">' + when + "</span></li>";
          });
        });
      }));
    });
  });
}

{% endautoescape %}
