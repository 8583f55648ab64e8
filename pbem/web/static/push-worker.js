// The service worker of "Notifications on this device" (/me): shows each push the server
// sends ({"title", "body", "url"}: nothing a seat hides) and opens its game's page when it
// is clicked. Served from the site's root (/push-worker.js) so that its scope covers it.
"use strict";

self.addEventListener("push", function (event) {
  var data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch (error) {
    data = {};
  }
  var url = typeof data.url === "string" ? data.url : "/";
  event.waitUntil(
    self.registration.showNotification(data.title || "El Grande", {
      body: data.body || "",
      data: { url: url },
      // A later push about the same game replaces the one not yet seen.
      tag: url,
    })
  );
});

self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  var target = new URL((event.notification.data || {}).url || "/", self.location.origin);
  if (target.protocol !== "https:" && target.protocol !== "http:") {
    target = new URL("/", self.location.origin);
  }
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (open) {
      for (var i = 0; i < open.length; i++) {
        if (open[i].url === target.href && "focus" in open[i]) {
          return open[i].focus();
        }
      }
      return self.clients.openWindow(target.href);
    })
  );
});

// Every request goes to the network as the page made it (nothing is kept offline: a game's
// page must be the game as it is); a fetch handler is what makes the site installable.
self.addEventListener("fetch", function () {});
