// The service worker of browser notifications, served at /push-worker.js so that its scope is
// the whole site. It shows each push the site sends ({title, body, url, tag}) and, on a click,
// brings the game's tab forward or opens it. It fetches nothing and caches nothing.
"use strict";

self.addEventListener("push", function (event) {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch (error) {
    data = { body: event.data ? event.data.text() : "" };
  }
  const url = sameSite(data.url);
  event.waitUntil(self.registration.showNotification(data.title || "Basilica", {
    body: data.body || "",
    tag: data.tag || url,
    renotify: Boolean(data.tag),
    data: { url: url },
  }));
});

self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  const url = sameSite(event.notification.data && event.notification.data.url);
  event.waitUntil(self.clients.matchAll({ type: "window", includeUncontrolled: true })
    .then(function (windows) {
      for (const client of windows) {
        if (client.url === url && "focus" in client) return client.focus();
      }
      return self.clients.openWindow(url);
    }));
});

// Only this site's own pages are opened from a notification.
function sameSite(url) {
  try {
    const target = new URL(url || "/", self.location.origin);
    return target.origin === self.location.origin ? target.href : self.location.origin + "/";
  } catch (error) {
    return self.location.origin + "/";
  }
}
