// "Notifications on this device" on /me: registers the service worker (/push-worker.js),
// and when the button is pressed asks for permission, subscribes with the server's VAPID
// public key and posts the subscription (with the form's CSRF token). Each sentence it
// shows is the page's, in its language (the section's data-* attributes).
(function () {
  "use strict";
  var section = document.getElementById("push");
  if (!section) {
    return;
  }
  var button = document.getElementById("push-subscribe");
  var status = document.getElementById("push-status");

  function say(text) {
    status.textContent = text;
    section.setAttribute("data-said", text);
  }

  function keyBytes(text) {
    var base64 = (text + "===".slice((text.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    var raw = window.atob(base64);
    var bytes = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) {
      bytes[i] = raw.charCodeAt(i);
    }
    return bytes;
  }

  var supported =
    window.isSecureContext &&
    "serviceWorker" in navigator &&
    "PushManager" in window &&
    "Notification" in window;
  if (!supported) {
    say(section.dataset.unsupported);
    button.disabled = true;
    return;
  }
  if (Notification.permission === "denied") {
    say(section.dataset.denied);
  }
  var registered = navigator.serviceWorker.register(section.dataset.worker, {
    scope: section.dataset.scope,
  });
  registered.then(
    function (registration) {
      section.setAttribute("data-registered", registration.scope);
    },
    function (error) {
      say(section.dataset.failed + " (" + error.message + ")");
    }
  );

  function post(subscription) {
    var body = new URLSearchParams();
    body.set("csrf_token", section.dataset.csrf);
    body.set("subscription", JSON.stringify(subscription));
    return fetch(section.dataset.store, {
      method: "POST",
      body: body,
      credentials: "same-origin",
    }).then(function (response) {
      return response.json().then(function (answer) {
        say(answer.detail);
        if (response.ok) {
          section.setAttribute("data-subscribed", "true");
        }
      });
    });
  }

  // A browser whose push service cannot be reached may leave subscribe() pending for good
  // (headless Chromium does): past data-wait seconds the page says so; should it settle
  // later, its answer replaces that sentence.
  function subscribe(registration) {
    var waiting = window.setTimeout(function () {
      say(section.dataset.silent);
    }, 1000 * Number(section.dataset.wait));
    return registration.pushManager
      .subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(section.dataset.key) })
      .finally(function () {
        window.clearTimeout(waiting);
      });
  }

  button.addEventListener("click", function () {
    say(section.dataset.asking);
    Notification.requestPermission()
      .then(function (permission) {
        if (permission !== "granted") {
          say(section.dataset.denied);
          return null;
        }
        return registered.then(subscribe).then(post);
      })
      .catch(function (error) {
        say(section.dataset.failed + " (" + (error.name || "") + ": " + error.message + ")");
      });
  });
})();
