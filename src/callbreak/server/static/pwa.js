// The installable app: registers the service worker (/sw.js), which keeps the page's shell and
// shows the offline page when the server cannot be reached. A browser without service workers
// (or a page not served over https or from localhost) simply runs without it.

if ("serviceWorker" in navigator) {
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch((e) => console.warn("no service worker:", e));
}
