// The app on the home screen (添加到主屏幕): the service worker (templates/pwa/sw.js, at /sw.js) keeps
// the app's files and the pages as last seen, for a weak or no signal. Browsers have one only on
// HTTPS or on the machine itself (localhost): on plain http over the table's Wi-Fi nothing is
// registered and every page works online as before (docs/deploy.md).
if ("serviceWorker" in navigator && window.isSecureContext) {
  window.addEventListener("load", function () {
    navigator.serviceWorker.register("/sw.js").catch(function () { /* the page works without it */ });
  });
}

// A page the service worker served as last seen, the network being silent: one line above it
// says so and when, until a request gets through again (the poll, every 3 s).
function showKeptCopy(root) {
  if (!root.querySelector) return;
  var line = root.matches && root.matches("[data-kept-at]") ? root : root.querySelector("[data-kept-at]");
  if (!line) return;
  var at = new Date(Number(line.getAttribute("data-kept-at")));
  var time = String(at.getHours()).padStart(2, "0") + ":" + String(at.getMinutes()).padStart(2, "0");
  line.textContent = document.documentElement.lang === "en"
    ? "Weak or no signal: this page as this phone last saw it, at " + time + ". It updates once the signal is back."
    : "信号弱或离线：这是本机 " + time + " 存下的页面，有信号后会自动更新。";
  line.className = "kept-copy alert alert-warning rounded-0 py-1 mb-0 small text-center";
  line.hidden = false;
}
document.addEventListener("DOMContentLoaded", function () { showKeptCopy(document); });
document.addEventListener("htmx:load", function (event) { showKeptCopy(event.detail.elt); });
document.addEventListener("htmx:afterRequest", function (event) {
  var xhr = event.detail.xhr;  // a kept copy (a boosted link with no signal) carries X-Kept-At
  if (event.detail.successful && xhr && xhr.status < 300 && !xhr.getResponseHeader("X-Kept-At")) {
    document.querySelectorAll("[data-kept-at]").forEach(function (line) { line.remove(); });
  }
});
