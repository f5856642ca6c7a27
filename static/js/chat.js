// A game's chat: new lines arrive as out-of-band swaps over the game's socket (and with the
// answer to one's own post: the second copy of a line is dropped); each list keeps its newest
// line in view; lines from others that arrive while the chat is out of sight are counted on the
// "Chat" tab and in the chat's heading. On a phone or a laptop the chat sits behind that tab.
// Without JavaScript the chat is simply on the page, under the game.
(function () {
  "use strict";
  const box = document.getElementById("chat");
  if (!box) return;
  const badges = document.querySelectorAll(".chat-unread");
  const tab = document.querySelector(".chat-tab");
  const tabbed = window.matchMedia("(max-width: 1499px)"); // a phone's or a laptop's screen
  let unread = 0;
  let inView = false;

  function show() {
    badges.forEach(function (badge) {
      badge.hidden = unread === 0;
      badge.textContent = String(unread);
      badge.title = (box.dataset.unread || "%(count)s").replace("%(count)s", String(unread));
    });
  }
  function seen() {
    unread = 0;
    show();
  }
  function toBottom(list) {
    list.scrollTop = list.scrollHeight;
  }

  document.querySelectorAll(".chat-lines").forEach(function (list) {
    toBottom(list);
    new MutationObserver(function (changes) {
      changes.forEach(function (change) {
        change.addedNodes.forEach(function (node) {
          if (node.nodeType !== 1 || !node.id) return;
          if (document.querySelectorAll("#" + CSS.escape(node.id)).length > 1) {
            node.remove(); // already shown: this page's own post, pushed back to it
            return;
          }
          if (node.dataset.mine !== "1" && !inView) unread += 1;
        });
      });
      show();
      toBottom(list);
    }).observe(list, { childList: true });
  });

  if ("IntersectionObserver" in window) {
    new IntersectionObserver(function (entries) {
      inView = entries.some(function (entry) { return entry.isIntersecting; });
      if (inView && !document.hidden) seen();
    }).observe(box);
  }
  document.addEventListener("visibilitychange", function () {
    if (!document.hidden && inView) seen();
  });

  function close() {
    box.classList.add("tab-closed");
    box.classList.remove("tab-open");
    if (tab) tab.setAttribute("aria-expanded", "false");
  }
  function open() {
    box.classList.remove("tab-closed");
    box.classList.add("tab-open");
    if (tab) tab.setAttribute("aria-expanded", "true");
    if (window.matchMedia("(max-width: 700px)").matches) box.scrollIntoView({ block: "start" });
    seen();
  }
  if (tab && tabbed.matches && !/#chat/.test(location.hash)) close();
  if (tab) {
    tab.addEventListener("click", function (event) {
      if (!tabbed.matches) return; // a wide screen shows the chat: the link just goes there
      event.preventDefault();
      if (box.classList.contains("tab-closed")) open(); else close();
    });
  }

  // After a post, the form comes back empty: keep typing in it.
  let posted = null;
  document.body.addEventListener("htmx:beforeRequest", function (event) {
    const form = event.detail.elt;
    posted = form && form.classList && form.classList.contains("chat-form") ? form.id : null;
  });
  document.body.addEventListener("htmx:afterSettle", function () {
    if (!posted) return;
    const form = document.getElementById(posted);
    const field = form && form.querySelector("input[name=text]");
    if (field) field.focus();
    posted = null;
  });
})();
