/** The page's inline CSS and its only script; the Content-Security-Policy admits exactly these (by hash). */

export const CSS = `
:root{--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;--bg:#fff;--soft:#f6f8fa;--accent:#0b3d91;
--pass:#1a7f37;--pass-bg:#dafbe1;--fail:#cf222e;--fail-bg:#ffebe9;--warn:#9a6700;--warn-bg:#fff8c5;
--na:#59636e;--na-bg:#f6f8fa;--nr:#4d5a6a;--nr-bg:#e7ecf0;--inc:#8250df;--inc-bg:#fbefff;--xf:#0969da;--xf-bg:#ddf4ff;
--up:#bc4c00;--up-bg:#fff1e5;--err:#82071e;--err-bg:#ffcecb}
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,"Noto Sans","Liberation Sans",sans-serif;color:var(--fg);background:var(--bg)}
main{max-width:1400px;margin:0 auto;padding:0 24px 48px}
code,pre,.sha{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono","DejaVu Sans Mono",monospace;font-size:12.5px}
pre{white-space:pre-wrap;overflow-wrap:anywhere;margin:0}
.sha{overflow-wrap:anywhere}
h1{font-size:24px;margin:2px 0 0}h2{font-size:19px;margin:32px 0 8px;padding-bottom:6px;border-bottom:2px solid var(--accent);color:var(--accent)}
h3{font-size:16px;margin:18px 0 8px}h4{font-size:14px;margin:14px 0 6px}h5{font-size:12.5px;margin:8px 0 4px;text-transform:uppercase;letter-spacing:.04em;color:var(--muted)}
.muted{color:var(--muted)}.help{color:var(--muted);margin:4px 0 12px;max-width:900px}
.top{background:var(--soft);border-bottom:1px solid var(--line);padding:20px 24px 0;margin:0 -24px 8px}
.kicker{margin:0;color:var(--accent);font-weight:600;text-transform:uppercase;font-size:12px;letter-spacing:.08em}
.title-row{display:flex;justify-content:space-between;align-items:flex-start;gap:16px;flex-wrap:wrap}
.overall{display:flex;flex-direction:column;align-items:flex-end;gap:2px}.overall .pv{font-size:22px;padding:6px 18px}.overall-note{font-size:12px;color:var(--muted)}
.meta{display:grid;grid-template-columns:repeat(auto-fill,minmax(260px,1fr));gap:6px 24px;margin:14px 0}
.meta div,.kv div{display:flex;gap:8px;min-width:0}.meta dt{min-width:120px}.meta .wide{grid-column:1/-1}
dt{color:var(--muted);min-width:150px;flex:none}dd{margin:0;min-width:0;overflow-wrap:anywhere}
.toc{display:flex;gap:18px;padding:10px 0;border-top:1px solid var(--line);flex-wrap:wrap}.toc a{color:var(--accent);text-decoration:none;font-weight:600}
.pv{display:inline-block;font-weight:700;border-radius:6px;padding:2px 10px;letter-spacing:.05em;border:2px solid}
.pv-pass{color:var(--pass);background:var(--pass-bg)}.pv-fail{color:var(--fail);background:var(--fail-bg)}.pv-none{color:var(--nr);background:var(--nr-bg)}.pv-inc{color:var(--inc);background:var(--inc-bg)}
ul.attention{padding-left:18px}ul.attention li{margin:4px 0}
.profiles{display:grid;grid-template-columns:repeat(auto-fit,minmax(480px,1fr));gap:16px}
.profile-card{border:1px solid var(--line);border-radius:8px;padding:12px 16px;break-inside:avoid}
.pc-head{display:flex;align-items:center;gap:10px}.pc-head h3{margin:4px 0;flex:1}
.env{font-size:11px;font-weight:600;text-transform:uppercase;letter-spacing:.06em;color:var(--muted);border:1px solid var(--line);border-radius:10px;padding:0 7px}
.kv{display:grid;gap:3px;margin:8px 0}.tag{font-size:11px;background:var(--xf-bg);color:var(--xf);border-radius:10px;padding:0 7px}
.fault{font-family:ui-monospace,monospace;font-size:12.5px;background:var(--up-bg);color:var(--up);padding:0 5px;border-radius:4px}
.run-errors{border:1px solid var(--err);background:var(--err-bg);color:var(--err);border-radius:6px;padding:6px 12px;margin:8px 0}.run-errors ul{margin:4px 0;padding-left:20px}
table{border-collapse:collapse}th,td{text-align:left;vertical-align:top}
.counts{margin-top:6px;font-size:12.5px}.counts th,.counts td{border:1px solid var(--line);padding:2px 10px}.counts td.n{min-width:64px}.counts tbody th{font-weight:400}.counts thead th{background:var(--soft);font-weight:600;font-size:11.5px;line-height:1.2}
.counts td.n{text-align:right;font-variant-numeric:tabular-nums}.counts td.zero{color:#a0a8b0}.counts tr.total{font-weight:600;background:var(--soft)}
.table-wrap{overflow-x:auto}
.matrix{width:100%;font-size:13px}.matrix th,.matrix td{border:1px solid var(--line);padding:4px 8px}
.matrix thead th{position:sticky;top:0;background:var(--soft);z-index:1}.matrix .rid{white-space:nowrap;font-family:ui-monospace,monospace}
.matrix .rq-title{min-width:260px;max-width:520px;color:#3d444d}.pcol{min-width:170px}
.lvl{font-size:11px;font-weight:700}.lvl-SHOULD{color:var(--muted)}
.cell .cl{font-weight:600;text-decoration:none;color:inherit;white-space:nowrap}.cell .why{display:block;font-size:11.5px;color:#3d444d;overflow:hidden;display:-webkit-box;-webkit-line-clamp:2;-webkit-box-orient:vertical}
.cell .nchk{font-size:11px;color:var(--muted);margin-left:6px}
.cell.v-none{background:repeating-linear-gradient(45deg,#fff,#fff 6px,#f3f4f6 6px,#f3f4f6 12px);color:var(--muted)}.cell.v-none .cl{font-weight:400}
.v-pass{background:var(--pass-bg);color:var(--pass)}.v-fail{background:var(--fail-bg);color:var(--fail)}.v-warn{background:var(--warn-bg);color:var(--warn)}
.v-not-applicable{background:var(--na-bg);color:var(--na)}.v-not-run{background:var(--nr-bg);color:var(--nr)}.v-inconclusive{background:var(--inc-bg);color:var(--inc)}
.v-expected-fail{background:var(--xf-bg);color:var(--xf)}.v-unexpected-pass{background:var(--up-bg);color:var(--up)}.v-error{background:var(--err-bg);color:var(--err)}
.counts td.n.v-pass,.counts td.n.v-fail,.counts td.n.v-warn,.counts td.n.v-error,.counts td.n.v-unexpected-pass{font-weight:700}
.badge{display:inline-block;border-radius:12px;padding:1px 9px;font-size:12px;font-weight:600;white-space:nowrap;border:1px solid rgba(0,0,0,.08)}
.legend{display:flex;flex-wrap:wrap;gap:6px;margin:6px 0 10px}
.filters{position:sticky;top:0;z-index:2;background:#fffffff2;border:1px solid var(--line);border-radius:8px;padding:8px 12px;display:flex;flex-wrap:wrap;gap:8px 16px;align-items:center;margin-bottom:12px}
.filters fieldset{border:0;padding:0;margin:0;display:flex;flex-wrap:wrap;gap:4px;align-items:center}.filters legend{float:left;margin-right:6px;color:var(--muted)}
.vbox{border-radius:12px;padding:1px 8px;font-size:12px;cursor:pointer;user-select:none}.vbox input{margin:0 2px 0 0;vertical-align:-1px}.vbox .cnt{font-weight:700}
.filters button{font:inherit;font-size:12px;border:1px solid var(--line);background:#fff;border-radius:6px;padding:2px 8px;cursor:pointer}.filters button:hover{background:var(--soft)}
.filters select,.filters input[type=search]{font:inherit;font-size:13px;padding:2px 6px;border:1px solid var(--line);border-radius:6px}
.fsearch input{width:240px}#shown{color:var(--muted);font-size:12px;margin-left:auto}
.js .js-note{display:none}.js-note{color:var(--muted)}
.check{border:1px solid var(--line);border-left-width:5px;border-radius:6px;margin:6px 0;background:#fff}
.v-pass-edge{border-left-color:var(--pass)}.v-fail-edge{border-left-color:var(--fail)}.v-warn-edge{border-left-color:#d4a72c}.v-not-applicable-edge{border-left-color:#c9d1d9}
.v-not-run-edge{border-left-color:#8c959f}.v-inconclusive-edge{border-left-color:var(--inc)}.v-expected-fail-edge{border-left-color:var(--xf)}.v-unexpected-pass-edge{border-left-color:var(--up)}.v-error-edge{border-left-color:var(--err)}
.check>summary{display:flex;gap:10px;align-items:baseline;padding:7px 10px;cursor:pointer;list-style:none;flex-wrap:wrap}
.check>summary::-webkit-details-marker{display:none}.check>summary::before{content:"▸";color:var(--muted);width:10px}.check[open]>summary::before{content:"▾"}
.check[open]>summary{border-bottom:1px solid var(--line);background:var(--soft)}
.s-verdict{flex:none;min-width:128px}.s-ids{display:flex;gap:4px;flex:none}.rq{font-family:ui-monospace,monospace;font-size:12px;background:#eef1f5;border-radius:4px;padding:0 5px;color:#24292f}
.s-title{flex:1;min-width:200px;font-weight:500;overflow-wrap:anywhere}.s-meta{color:var(--muted);font-size:12px;white-space:nowrap}
.check-body{padding:8px 16px 14px}.reason{font-weight:600}
.eo{display:grid;grid-template-columns:1fr 1fr;gap:10px;margin:10px 0}.eo>div{border:1px solid var(--line);border-radius:6px;padding:4px 10px 8px}
.eo .exp{background:#f6fbf7}.eo .obs{background:#fff8f7}
.notes{margin:4px 0 8px;padding-left:20px}
.exchange{border:1px solid var(--line);border-radius:6px;margin:10px 0;padding:8px 12px;break-inside:auto}
.x-head{font-weight:600}.x-n{display:inline-block;min-width:20px;text-align:center;background:var(--accent);color:#fff;border-radius:10px;font-size:11px;margin-right:4px}
.x-line{margin:4px 0;overflow-wrap:anywhere}.x-error{color:var(--err);margin:4px 0}
.x-cols{display:grid;grid-template-columns:1fr 1fr;gap:12px}.msg{min-width:0}
.cases{font-size:12px;width:100%;margin-bottom:6px;border-collapse:collapse}.cases th{text-align:left;color:#3d444d;padding:1px 8px 1px 0}.cases td{padding:1px 8px 1px 0;overflow-wrap:anywhere;vertical-align:top}.headers{font-size:12px;width:100%;margin-bottom:4px}.headers th{font-family:ui-monospace,monospace;font-weight:600;color:#3d444d;padding:1px 10px 1px 0;white-space:nowrap;width:1%}.headers td{font-family:ui-monospace,monospace;overflow-wrap:anywhere;padding:1px 0}
pre.body,.jh pre,.eo pre{background:var(--soft);border:1px solid var(--line);border-radius:4px;padding:6px 8px;max-height:420px;overflow:auto}
.eo pre{background:transparent;border:0;padding:0;max-height:none}
.status{font-weight:700;border-radius:4px;padding:0 5px;font-size:12px}.s2{background:var(--pass-bg);color:var(--pass)}.s3{background:var(--xf-bg);color:var(--xf)}.s4{background:var(--warn-bg);color:var(--warn)}.s5{background:var(--fail-bg);color:var(--fail)}
.jose,.tls{border-top:1px dashed var(--line);margin-top:8px;padding-top:4px}.jh{margin:4px 0}.chain{margin:0;padding-left:1.2em}
.assume{font-size:13px}.assume th,.assume td{border:1px solid var(--line);padding:3px 10px}.assume thead th{background:var(--soft)}.assume tr.differ td{background:var(--warn-bg)}
pre.cmd{background:#0d1117;color:#e6edf3;border-radius:6px;padding:8px 12px}
footer{margin-top:36px;color:var(--muted);font-size:12px;border-top:1px solid var(--line);padding-top:8px}
[hidden]{display:none!important}
@media (max-width:900px){.x-cols,.eo{grid-template-columns:1fr}.profiles{grid-template-columns:1fr}}
@media print{
  @page{margin:14mm 12mm}
  *{-webkit-print-color-adjust:exact;print-color-adjust:exact}
  body{font-size:10.5pt}main{max-width:none;padding:0}
  .top{margin:0;padding:0 0 4px;background:none}
  .toc,.filters,.js-note,.legend,.fbtns{display:none!important}
  .matrix thead th{position:static}.cell .why{-webkit-line-clamp:unset;display:block}
  h2{break-after:avoid}h3,h4{break-after:avoid}
  .profile-card,.exchange,.tls,.eo,tr{break-inside:avoid}
  .check{break-inside:avoid-page}
  .check>summary::before{content:""}
  pre.body,.jh pre{max-height:none;overflow:visible}
  details.check::details-content{content-visibility:visible;display:block}
  a{color:inherit;text-decoration:none}
}`;

/* The page's only script: filters, search, expand/collapse, matrix links, print. No network, no innerHTML. */
export const JS = `(function(){
'use strict';
document.documentElement.classList.add('js');
var checks=[].slice.call(document.querySelectorAll('details.check'));
var rows=[].slice.call(document.querySelectorAll('#matrix-table tbody tr'));
var boxes=[].slice.call(document.querySelectorAll('#filters input[name=verdict]'));
var fProfile=document.getElementById('f-profile'),fSuite=document.getElementById('f-suite'),fSearch=document.getElementById('f-search'),shown=document.getElementById('shown');
var PROBLEMS=['fail','error','unexpected-pass','warn','inconclusive','not-run'];
function selected(){var s={};boxes.forEach(function(b){if(b.checked)s[b.value]=true;});return s;}
function apply(){
  var s=selected(),p=fProfile.value,su=fSuite.value,q=fSearch.value.trim().toLowerCase(),n=0,allV=boxes.every(function(b){return b.checked;});
  checks.forEach(function(c){
    var ok=!!s[c.dataset.verdict]&&(!p||c.dataset.profile===p)&&(!su||c.dataset.suite===su)&&(!q||c.dataset.search.indexOf(q)>=0);
    c.hidden=!ok;if(ok)n++;
  });
  [].slice.call(document.querySelectorAll('.sgroup,.pgroup')).forEach(function(g){g.hidden=!g.querySelector('details.check:not([hidden])');});
  shown.textContent='showing '+n+' of '+checks.length+' checks';
  [].slice.call(document.querySelectorAll('#matrix-table [data-profile]')).forEach(function(el){el.hidden=!!p&&el.dataset.profile!==p;});
  rows.forEach(function(r){
    var textOk=!q||r.dataset.search.indexOf(q)>=0;
    var cells=[].slice.call(r.querySelectorAll('td.cell')).filter(function(td){return !td.hidden;});
    var vOk=allV||cells.some(function(td){return !!s[td.dataset.verdict];});
    r.hidden=!(textOk&&vOk);
  });
}
function setAll(on,only){boxes.forEach(function(b){b.checked=only?only.indexOf(b.value)>=0:on;});apply();}
boxes.forEach(function(b){b.addEventListener('change',apply);});
fProfile.addEventListener('change',apply);fSuite.addEventListener('change',apply);fSearch.addEventListener('input',apply);
document.getElementById('filters').addEventListener('submit',function(e){e.preventDefault();});
document.getElementById('only-problems').addEventListener('click',function(){setAll(false,PROBLEMS);});
document.getElementById('all-verdicts').addEventListener('click',function(){setAll(true);});
document.getElementById('expand-all').addEventListener('click',function(){checks.forEach(function(c){if(!c.hidden)c.open=true;});});
document.getElementById('collapse-all').addEventListener('click',function(){checks.forEach(function(c){c.open=false;});});
function reveal(id){
  var el=document.getElementById(id);if(!el||el.tagName!=='DETAILS')return;
  if(el.hidden){fProfile.value='';fSuite.value='';fSearch.value='';setAll(true);}
  el.open=true;el.scrollIntoView({block:'start'});
}
document.addEventListener('click',function(e){
  var a=e.target.closest&&e.target.closest('a.jump');if(!a)return;
  var id=a.getAttribute('href').slice(1);if(!id)return;e.preventDefault();history.replaceState(null,'','#'+id);reveal(id);
});
if(location.hash)reveal(location.hash.slice(1));
var opened=[];
window.addEventListener('beforeprint',function(){opened=checks.filter(function(c){return !c.open;});opened.forEach(function(c){c.open=true;});});
window.addEventListener('afterprint',function(){opened.forEach(function(c){c.open=false;});opened=[];});
apply();
})();`;
