// Settings' "Notifications in this browser": says what this browser can do and, only when the
// player presses the button, asks for permission, subscribes through the service worker and
// hands the subscription to the site. Nothing is asked on load. Without this script the section
// says that JavaScript is needed; the list of browsers and its Remove buttons work without it.
(function () {
  "use strict";
  const section = document.getElementById("push-devices");
  if (!section || !section.dataset.key) return;
  const button = document.getElementById("push-enable");

  function show(state) {
    section.querySelectorAll("[data-push-state]").forEach(function (element) {
      element.hidden = element.dataset.pushState !== state;
    });
  }

  const supported = "serviceWorker" in navigator && "PushManager" in window
    && "Notification" in window && window.isSecureContext;
  if (!supported) {
    show("unsupported");
    return;
  }
  if (Notification.permission === "denied") {
    show("denied");
    return;
  }
  show("off");

  // A browser already subscribed and listed is marked; nothing is asked to find out.
  if (Notification.permission === "granted") {
    navigator.serviceWorker.getRegistration(section.dataset.worker).then(function (registration) {
      return registration ? registration.pushManager.getSubscription() : null;
    }).then(function (subscription) {
      if (!subscription) return;
      section.querySelectorAll("li[data-endpoint]").forEach(function (item) {
        if (item.dataset.endpoint !== subscription.endpoint) return;
        item.querySelector("[data-this-browser]").hidden = false;
        show("on");
      });
    }).catch(function () { /* the button still works */ });
  }

  function keyBytes(base64url) {
    const base64 = (base64url + "===".slice((base64url.length + 3) % 4))
      .replace(/-/g, "+").replace(/_/g, "/");
    return Uint8Array.from(atob(base64), function (c) { return c.charCodeAt(0); });
  }

  async function subscribe() {
    const permission = await Notification.requestPermission();
    if (permission !== "granted") {
      show(permission === "denied" ? "denied" : "off");
      return;
    }
    const registration = await navigator.serviceWorker.register(section.dataset.worker, { scope: "/" });
    await navigator.serviceWorker.ready;
    let subscription = await registration.pushManager.getSubscription();
    if (!subscription) {
      subscription = await registration.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: keyBytes(section.dataset.key),
      });
    }
    const response = await fetch(section.dataset.subscribe, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": section.dataset.csrf },
      body: JSON.stringify(subscription.toJSON()),
    });
    if (!response.ok) throw new Error("the site refused the subscription: " + response.status);
    window.location.reload();  // the list now shows this browser
  }

  button.addEventListener("click", function () {
    button.disabled = true;
    subscribe().catch(function () {
      show("failed");
      const off = section.querySelector('[data-push-state="off"]');
      if (off) off.hidden = false;
    }).finally(function () {
      button.disabled = false;
    });
  });
})();
