// The lab's entry point on the page: tiny, so the page stays light. It adds the lab's stylesheet
// and loads the lab itself (its wasm module and widgets) only when the section comes within a
// screen or so of the viewport, or on the first interaction with it, whichever is first.
const mount = document.getElementById('algorithm-lab');

const style = document.createElement('link');
style.rel = 'stylesheet';
style.href = new URL('./lab.css', import.meta.url).href;
document.head.append(style);

let loading = null;
/** Loads and mounts the lab once; resolves to its handle (also at window.bucketlab.lab). */
function load() {
  loading ??= import('./app.js')
    .then(({ mountLab }) => mountLab(mount))
    .then((handle) => {
      window.bucketlab ??= {};
      window.bucketlab.lab = handle;
      performance.mark('bucketlab:lab-interactive');
      return handle;
    });
  return loading;
}

// main.js replaces window.bucketlab when it runs; add the loader once every module has run.
document.addEventListener('DOMContentLoaded', () => {
  window.bucketlab ??= {};
  window.bucketlab.loadLab = load;
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
