/**
 * The dashboard's stylesheet, served as `assets/dashboard.css` (the CSP's `style-src 'self'`:
 * no inline styles or `style` attributes anywhere). System fonts, light and dark schemes.
 */
export const STYLES = `:root{color-scheme:light dark;--fg:#1b1f24;--dim:#6a737d;--bg:#fff;--line:#e1e4e8;--accent:#0b5fff;--red:#c62828;--green:#1b7f3b;--amber:#9a6700;--cyan:#0a7ea4;--chip:#f3f4f6}
@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--dim:#8b949e;--bg:#0d1117;--line:#30363d;--accent:#4c8dff;--red:#f47067;--green:#57ab5a;--amber:#c69026;--cyan:#39c5cf;--chip:#161b22}}
*{box-sizing:border-box}body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
header{display:flex;gap:1.5rem;align-items:center;padding:.6rem 1.2rem;border-bottom:1px solid var(--line)}
header nav{display:flex;gap:1rem}header a{color:var(--fg);text-decoration:none}header a[aria-current=page]{color:var(--accent);font-weight:600}
.brand{font-weight:700}.live{margin-left:auto;font-size:12px;color:var(--green)}.live[data-stale]{color:var(--red)}
main{padding:1rem 1.2rem;max-width:1400px}h1{font-size:20px;margin:.2rem 0 1rem}h2{font-size:15px;margin:1.6rem 0 .5rem}
a{color:var(--accent)}table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.35rem .6rem;border-bottom:1px solid var(--line);vertical-align:top}
th{font-weight:600;font-size:12px;color:var(--dim);text-transform:uppercase;letter-spacing:.03em}tbody th{text-transform:none;font-size:14px;color:var(--fg)}
.num{text-align:right;font-variant-numeric:tabular-nums}.dim{color:var(--dim)}.mono,code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:12.5px}
.error,.error code{color:var(--red)}.name{font-weight:600;overflow-wrap:anywhere}
.badge{display:inline-block;padding:0 .45rem;border-radius:999px;font-size:12px;background:var(--chip);border:1px solid var(--line)}
.state-ready,.state-started{color:var(--accent)}.state-running{color:var(--cyan)}.state-done,.state-completed{color:var(--green)}.state-dead,.state-failed{color:var(--red)}.state-delayed,.state-suspended,.paused{color:var(--amber)}.state-cancelled{color:var(--dim)}
form.action{display:inline-flex;gap:.3rem;margin:0 .3rem .3rem 0}button{font:inherit;padding:.2rem .7rem;border-radius:6px;border:1px solid var(--line);background:var(--chip);color:var(--fg);cursor:pointer}
button:hover{border-color:var(--accent)}button.danger{color:var(--red)}input,select{font:inherit;padding:.2rem .4rem;border:1px solid var(--line);border-radius:6px;background:var(--bg);color:var(--fg)}
.filters{display:flex;flex-wrap:wrap;gap:.8rem;align-items:end;margin-bottom:1rem}.filters label{display:flex;flex-direction:column;font-size:12px;color:var(--dim)}
.banner{margin:0;padding:.5rem 1.2rem;background:var(--chip);border-bottom:1px solid var(--line);color:var(--amber)}
.fields{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem;margin:1rem 0}.fields dt{color:var(--dim)}.fields dd{margin:0;overflow-wrap:anywhere}
.stopped{padding:.5rem .8rem;border-left:3px solid var(--red);background:var(--chip)}.subtitle{margin-top:-.5rem}
pre.json{margin:0;padding:.6rem;background:var(--chip);border-radius:6px;overflow:auto;max-height:24rem;white-space:pre-wrap;word-break:break-all}
.timeline{list-style:none;padding:0;margin:0;border-left:2px solid var(--line)}.timeline li{padding:.25rem .8rem}.timeline .kind-finished{font-weight:600}
.attempt-errors{padding-left:1.2rem;margin:0}.attempt-errors li{padding:.25rem 0}.attempt-errors summary{cursor:pointer;color:var(--dim);font-size:12px}
pre.stack{margin:.3rem 0 0;padding:.6rem;background:var(--chip);border-radius:6px;overflow:auto;max-height:24rem;white-space:pre-wrap;overflow-wrap:anywhere}
.pager{margin-top:1rem}.empty{color:var(--dim)}ul.plain{list-style:none;margin:0;padding:0}.error-box{padding:.8rem;border:1px solid var(--red);border-radius:6px}
`;
