// The look of the agent workspace page, after Zendesk's agent workspace: a dark product bar on the
// left, a top bar with the open ticket's tab, the ticket's properties, its conversation with the
// composer and the submit bar, and the apps panel on the right with each app's header. Only the
// look: ids, names and the form are render-ticket-page.ts' and ticket-form.ts' business. Icons are
// CSS backgrounds (data: URLs, which the page's img-src allows): the page holds no <svg> or <img>
// of its own besides the app's logo. The page scrolls as a whole and the top bar scrolls with it:
// a sticky bar would cover the top of the app's frame, where the sidebar opens its dialogs once
// the page is scrolled. The apps panel's frame fills the panel's width (no padding beside it).

function icon(paths: string, colour: string): string {
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" fill="none" stroke="${colour}" ` +
    `stroke-width="1.8" stroke-linecap="round" stroke-linejoin="round">${paths}</svg>`;
  return `url("data:image/svg+xml,${encodeURIComponent(svg)}")`;
}

const NAV = '#d8dcde';
const ICONS = {
  home: icon('<path d="M3 11l9-7 9 7"/><path d="M5 10v10h14V10"/><path d="M10 20v-6h4v6"/>', NAV),
  views: icon(
    '<rect x="4" y="4" width="16" height="16" rx="2"/><path d="M8 9h8M8 12h8M8 15h5"/>',
    NAV,
  ),
  customers: icon('<circle cx="12" cy="8" r="4"/><path d="M4 20c1.5-4 4.5-6 8-6s6.5 2 8 6"/>', NAV),
  organizations: icon(
    '<rect x="5" y="3" width="14" height="18" rx="1"/><path d="M9 7h2M13 7h2M9 11h2M13 11h2M9 15h2M13 15h2"/>',
    NAV,
  ),
  reporting: icon('<path d="M4 20h16"/><path d="M7 16v-5M12 16V6M17 16v-8"/>', NAV),
  admin: icon(
    '<circle cx="12" cy="12" r="3"/><path d="M12 2v3M12 19v3M2 12h3M19 12h3M4.9 4.9l2.1 2.1M17 17l2.1 2.1M4.9 19.1L7 17M17 7l2.1-2.1"/>',
    NAV,
  ),
  products: icon(
    '<rect x="4" y="4" width="6" height="6" rx="1"/><rect x="14" y="4" width="6" height="6" rx="1"/><rect x="4" y="14" width="6" height="6" rx="1"/><rect x="14" y="14" width="6" height="6" rx="1"/>',
    NAV,
  ),
  brand: icon(
    '<path d="M5 5h14a1 1 0 011 1v9a1 1 0 01-1 1h-8l-4 3v-3H5a1 1 0 01-1-1V6a1 1 0 011-1z"/>',
    '#ffffff',
  ),
  search: icon('<circle cx="11" cy="11" r="6"/><path d="M20 20l-4.5-4.5"/>', '#68737d'),
  bell: icon('<path d="M6 16V11a6 6 0 0112 0v5l2 2H4z"/><path d="M10 20a2 2 0 004 0"/>', '#68737d'),
  help: icon(
    '<circle cx="12" cy="12" r="9"/><path d="M9.5 9a2.5 2.5 0 114 2c-1 .6-1.5 1.2-1.5 2.5"/><path d="M12 17h.01"/>',
    '#68737d',
  ),
  close: icon('<path d="M7 7l10 10M17 7L7 17"/>', '#68737d'),
  user: icon(
    '<circle cx="12" cy="8" r="4"/><path d="M4 20c1.5-4 4.5-6 8-6s6.5 2 8 6"/>',
    '#68737d',
  ),
  knowledge: icon(
    '<path d="M4 5h6a2 2 0 012 2v13a2 2 0 00-2-2H4z"/><path d="M20 5h-6a2 2 0 00-2 2v13a2 2 0 012-2h6z"/>',
    '#68737d',
  ),
  apps: icon(
    '<rect x="4" y="4" width="6" height="6" rx="1"/><rect x="14" y="4" width="6" height="6" rx="1"/><rect x="4" y="14" width="6" height="6" rx="1"/><rect x="14" y="14" width="6" height="6" rx="1"/>',
    '#1f73b7',
  ),
  chevron: icon('<path d="M6 9l6 6 6-6"/>', '#68737d'),
  attach: icon(
    '<path d="M20 11l-8 8a5 5 0 01-7-7l8-8a3.5 3.5 0 015 5l-8 8a2 2 0 01-3-3l7-7"/>',
    '#68737d',
  ),
};

export const WORKSPACE_STYLE = `
*,*::before,*::after{box-sizing:border-box}
html{background:#f8f9f9}
body{margin:0;color:#2f3941;font:14px/20px system-ui,-apple-system,BlinkMacSystemFont,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
.visually-hidden{position:absolute;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap;border:0}

#workspace-nav{position:fixed;inset:0 auto 0 0;width:60px;background:#03363d;display:flex;flex-direction:column;align-items:center;padding:10px 0;gap:6px;z-index:3}
#workspace-nav .nav-brand{width:36px;height:36px;border-radius:8px;background:#17494d ${ICONS.brand} center/22px no-repeat;margin-bottom:14px}
#workspace-nav .nav-item,#all-tickets{display:block;width:40px;height:40px;border-radius:6px;background-position:center;background-repeat:no-repeat;background-size:22px;opacity:.82}
#all-tickets{background-image:${ICONS.views};background-color:#17494d;opacity:1;box-shadow:inset 3px 0 0 #fff}
#all-tickets:hover,#all-tickets:focus-visible{background-color:#1f5a5f;outline:none}
.nav-home{background-image:${ICONS.home}}
.nav-customers{background-image:${ICONS.customers}}
.nav-organizations{background-image:${ICONS.organizations}}
.nav-reporting{background-image:${ICONS.reporting}}
.nav-admin{background-image:${ICONS.admin}}
#workspace-nav .nav-products{margin-top:auto;background-image:${ICONS.products}}

#workspace{margin-left:60px;min-height:100vh;display:flex;flex-direction:column}
#workspace-topbar{height:48px;flex:none;display:flex;align-items:stretch;justify-content:space-between;background:#fff;border-bottom:1px solid #d8dcde}
.tabs{display:flex;align-items:stretch;min-width:0}
.tab{display:flex;align-items:center;gap:8px;width:232px;padding:0 12px;border-right:1px solid #e9ebed;min-width:0}
button.tab{border:0;border-right:1px solid #e9ebed;background:none;font:inherit;color:inherit;text-align:left;cursor:pointer}
button.nav-item{border:0;cursor:pointer;background-color:transparent}
[hidden]{display:none!important}
#home-pane{padding:24px}
#ticket-save-error{color:#cc3340;margin:8px 0 0}
body[data-view="home"] .tab.active{background:none;box-shadow:none}
.tab.active{background:#f8f9f9;box-shadow:inset 0 -3px 0 #1f73b7}
.tab-title{flex:1;min-width:0;overflow:hidden;text-overflow:ellipsis;white-space:nowrap;font-weight:600}
.tab-title small{display:block;font-weight:400;font-size:12px;line-height:14px;color:#68737d}
.tab-close{width:16px;height:16px;flex:none;background:${ICONS.close} center/14px no-repeat}
.tab-add{display:flex;align-items:center;padding:0 16px;color:#1f73b7;font-weight:600;white-space:nowrap}
.topbar-tools{display:flex;align-items:center;gap:14px;padding:0 16px;flex:none}
.tool{width:20px;height:20px;background-position:center;background-repeat:no-repeat;background-size:20px}
.tool-search{background-image:${ICONS.search}}
.tool-bell{background-image:${ICONS.bell}}
.tool-help{background-image:${ICONS.help}}
#workspace-agent{margin:0;font-size:12px;line-height:16px;color:#68737d;max-width:170px;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}

.avatar{display:inline-flex;align-items:center;justify-content:center;flex:none;width:32px;height:32px;border-radius:50%;background:#5293c7;color:#fff;font-size:12px;font-weight:600;line-height:1;letter-spacing:.02em}
.avatar.small{width:24px;height:24px;font-size:10px}
.avatar.tone-1{background:#5293c7}.avatar.tone-2{background:#228f67}.avatar.tone-3{background:#c38f00}
.avatar.tone-4{background:#ad5918}.avatar.tone-5{background:#6a27b8}.avatar.tone-6{background:#cc3340}

#workspace-body{flex:1;display:flex;align-items:stretch;min-height:0}
#ticket-workspace{flex:1;min-width:0;display:grid;grid-template-columns:232px minmax(0,1fr);grid-template-rows:auto auto 1fr auto;background:#fff}

#ticket-panel{grid-column:2;grid-row:1;padding:16px 24px 8px;min-width:0}
.ticket-header h1{margin:0;font-size:20px;line-height:28px;font-weight:600;overflow-wrap:anywhere}
.ticket-meta{margin:4px 0 0;display:flex;flex-wrap:wrap;align-items:center;gap:6px 8px;color:#68737d;font-size:13px}
.status{display:inline-block;border-radius:4px;padding:0 6px;font-size:11px;line-height:18px;font-weight:700;text-transform:uppercase;letter-spacing:.02em;color:#fff;background:#87929d}
.status-new{background:#ffb648;color:#2f3941}.status-open{background:#e34f32}.status-pending{background:#3091ec}
.status-hold{background:#2f3941}.status-solved,.status-closed{background:#87929d}
.ticket-fields h2{margin:0 0 6px;font-size:11px;line-height:16px;font-weight:600;text-transform:uppercase;letter-spacing:.04em;color:#68737d}
.ticket-tags h2{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
#ticket-tags{margin:0;padding:0;display:flex;flex-wrap:wrap;gap:4px}
.tag{list-style:none;display:inline-block;background:#e9ebed;border-radius:4px;padding:0 6px;font-size:12px;line-height:20px;color:#2f3941}
.ticket-fields{margin:12px 0 4px;padding:10px 12px;border:1px solid #e9ebed;border-radius:6px;background:#f8f9f9;font-size:12px;line-height:18px}
#ticket-custom-fields{margin:0}
.field{display:grid;grid-template-columns:104px minmax(0,1fr);column-gap:10px}
.field dt{color:#68737d;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}.field dd{margin:0;min-width:0;overflow-wrap:anywhere}
.field dd:empty::before{content:"-";color:#87929d}
.ticket-fields:not(:has(dd:not(:empty))){display:none}
.conversation h2{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
#ticket-conversation{margin:8px 0 0;padding:0;list-style:none}
.comment{display:flex;gap:12px;padding:14px 0;border-bottom:1px solid #e9ebed;list-style:none}
.comment:last-child{border-bottom:0}
.comment-main{flex:1;min-width:0}
.comment-meta{display:flex;flex-wrap:wrap;align-items:baseline;gap:8px}
.comment .author{font-weight:600}
.comment time{margin-left:auto;font-size:12px;color:#68737d}
.comment-body{margin-top:4px;white-space:pre-wrap;overflow-wrap:anywhere}
.comment.internal{background:#fff6e0;margin:0 -24px;padding:14px 24px;border-bottom-color:#fcdba9;box-shadow:inset 3px 0 0 #f5a133}
.note{display:inline-block;border-radius:4px;padding:0 6px;background:#fcdba9;color:#703815;font-size:11px;line-height:18px;font-weight:600}
.attachments{margin:8px 0 0;padding:0;list-style:none;display:flex;flex-wrap:wrap;gap:6px}
.attachments li{border:1px solid #d8dcde;border-radius:4px;padding:2px 8px 2px 24px;font-size:12px;background:${ICONS.attach} 4px center/14px no-repeat}
.attachments a{color:#1f73b7;text-decoration:none}

#ticket-form{display:contents}
#ticket-form>h2{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.form-properties{grid-column:1;grid-row:1/-1;background:#f8f9f9;border-right:1px solid #d8dcde;padding:16px;font-size:13px}
.property{margin:0 0 14px}
.property-label,.form-properties legend,.form-field{display:block;font-weight:600;font-size:12px;line-height:16px;color:#2f3941}
.property-value{display:flex;align-items:center;gap:8px;margin-top:6px;font-weight:400}
.form-properties fieldset{border:0;margin:0 0 10px;padding:0;min-width:0}
.form-properties legend{padding:0;margin:0 0 6px;text-transform:uppercase;letter-spacing:.04em;color:#68737d;font-size:11px}
.form-field{margin:0 0 12px}
.form-field input[type=text],.form-field select,.form-submit select{display:block;width:100%;margin-top:4px;height:32px;padding:0 8px;border:1px solid #d8dcde;border-radius:4px;background:#fff;color:#2f3941;font:inherit;font-weight:400;font-size:13px}
.form-field input[type=text]:focus,.form-field select:focus,#comment-body:focus{outline:none;border-color:#5293c7;box-shadow:0 0 0 3px rgba(31,115,183,.35)}
#remove-tags{display:flex;flex-wrap:wrap;gap:4px;margin-bottom:8px;font-size:12px;color:#68737d}
.remove-tag{display:inline-flex;align-items:center;gap:4px;max-width:100%;background:#e9ebed;border-radius:4px;padding:0 6px;line-height:22px;color:#2f3941;margin:0;overflow-wrap:anywhere}
.remove-tag input{margin:0}

.composer{grid-column:2;grid-row:2;margin:8px 24px 16px;padding:0;border:1px solid #d8dcde;border-radius:8px;background:#fff;min-width:0}
.composer legend{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.composer-kind{display:flex;gap:16px;padding:8px 12px;border-bottom:1px solid #e9ebed;font-size:13px;font-weight:600}
.composer-kind label{display:inline-flex;align-items:center;gap:6px}
#comment-body{display:block;width:100%;min-height:72px;border:0;border-radius:0;padding:10px 12px;font:inherit;resize:vertical}
.composer .form-field{margin:0;padding:6px 12px 8px;border-top:1px solid #e9ebed;font-weight:400;color:#68737d}
.composer .form-field input{display:block;margin-top:4px;font-size:12px}

.form-submit{grid-column:1/-1;grid-row:4;position:sticky;bottom:0;z-index:1;display:flex;justify-content:flex-end;align-items:center;gap:12px;padding:10px 16px;background:#fff;border-top:1px solid #d8dcde}
.form-submit label{display:flex;align-items:center;gap:8px;font-size:13px;font-weight:600}
.form-submit select{display:inline-block;width:auto;margin:0;text-transform:capitalize}
#ticket-submit{height:36px;padding:0 20px;border:0;border-radius:4px;background:#03363d;color:#fff;font:inherit;font-weight:600;cursor:pointer}
#ticket-submit:hover,#ticket-submit:focus-visible{background:#17494d;outline:none;box-shadow:0 0 0 3px rgba(31,115,183,.35)}

#apps-panel{box-sizing:content-box;width:340px;flex:none;background:#fff;border-left:1px solid #d8dcde;min-width:0}
.context-tabs{display:flex;justify-content:flex-end;gap:4px;padding:8px 10px;border-bottom:1px solid #e9ebed}
.context-tabs span{width:32px;height:32px;border-radius:4px;background-position:center;background-repeat:no-repeat;background-size:20px}
.ctx-user{background-image:${ICONS.user}}.ctx-knowledge{background-image:${ICONS.knowledge}}
.ctx-apps{background-image:${ICONS.apps};background-color:#edf7ff}
.app-header{display:flex;align-items:center;gap:8px;height:40px;padding:0 12px;border-bottom:1px solid #e9ebed;font-weight:600}
.app-logo{width:20px;height:20px;border-radius:4px;flex:none}
span.app-logo{display:inline-flex;align-items:center;justify-content:center;background:#1f73b7;color:#fff;font-size:11px}
.app-name{flex:1;min-width:0;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.app-collapse{width:16px;height:16px;background:${ICONS.chevron} center/16px no-repeat;transform:rotate(180deg)}
#zaf-app-frame{display:block;width:100%;height:300px;border:0;background:#fff}
#zaf-app-message{margin:16px 12px;color:#68737d}
`;
