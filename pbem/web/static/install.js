// Every page registers the site's service worker (the one push notifications use, served
// from the root so that it covers every page), which makes the site installable: "Add to
// home screen" opens the list of games as an app of its own (/manifest.webmanifest).
(function () {
  "use strict";
  var script = document.currentScript;
  if (!script || !("serviceWorker" in navigator) || !window.isSecureContext) return;
  navigator.serviceWorker.register(script.getAttribute("data-worker"), {
    scope: script.getAttribute("data-scope"),
  }).catch(function () { /* no worker: the site works as a page */ });
})();
