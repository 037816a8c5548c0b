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
