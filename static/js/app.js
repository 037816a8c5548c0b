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
