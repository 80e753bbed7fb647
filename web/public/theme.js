// Sets <html data-theme> before the page paints (loaded blocking in <head>): the choice made in
// Settings (localStorage "pipit.theme": "light" or "dark"), else the system's, followed as it changes.
(() => {
  const system = matchMedia('(prefers-color-scheme: light)');
  const apply = () => {
    let chosen = null;
    try {
      chosen = localStorage.getItem('pipit.theme');
    } catch {
      // Storage refused (private mode): the system's theme.
    }
    const theme = chosen === 'light' || chosen === 'dark' ? chosen : system.matches ? 'light' : 'dark';
    document.documentElement.dataset.theme = theme;
  };
  apply();
  system.addEventListener('change', apply);
})();
