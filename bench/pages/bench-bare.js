// The bare page's one control: a click counts.
let clicks = 0;
document.querySelector('button').addEventListener('click', () => {
  clicks += 1;
  document.querySelector('output').textContent = String(clicks);
});
