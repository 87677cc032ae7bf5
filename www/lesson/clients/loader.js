// The clients section's entry point: tiny. It adds the stylesheet and loads the section itself
// (the lab's wasm module, which holds simulateClients, and the widgets) only when the section comes
// within a screen or so of the viewport, or on the first interaction with it.
const mount = document.getElementById('clients-lab');

const style = document.createElement('link');
style.rel = 'stylesheet';
style.href = new URL('./clients.css', import.meta.url).href;
document.head.append(style);

let loading = null;
/** Loads and mounts the section once; resolves to its handle (also at window.bucketlab.clients). */
function load() {
  loading ??= import('./app.js')
    .then(({ mountClients }) => mountClients(mount))
    .then((handle) => {
      window.bucketlab ??= {};
      window.bucketlab.clients = handle;
      return handle;
    });
  return loading;
}

// main.js replaces window.bucketlab when it runs; add the loader once every module has run.
document.addEventListener('DOMContentLoaded', () => {
  window.bucketlab ??= {};
  window.bucketlab.loadClients = load;
});

if (mount) {
  const observer = new IntersectionObserver((entries) => {
    if (entries.some((e) => e.isIntersecting)) {
      observer.disconnect();
      load();
    }
  }, { rootMargin: '600px 0px' });
  observer.observe(mount);
  for (const type of ['pointerdown', 'focusin', 'keydown']) {
    mount.addEventListener(type, () => load(), { once: true });
  }
}
