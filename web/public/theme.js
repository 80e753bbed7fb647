// Applies the chosen theme before the page paints (loaded blocking in <head>): "light" or "dark"
// from Settings (localStorage "pipit.theme"), else none, and the CSS follows the system.
(() => {
  try {
    const theme = localStorage.getItem('pipit.theme');
    if (theme === 'light' || theme === 'dark') document.documentElement.dataset.theme = theme;
  } catch {
    // Storage refused (private mode): the system's theme.
  }
})();
