// The report page's stylesheet: readable tables, charts that scale, transcripts that wrap.

export const PAGE_STYLE = `
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0 auto; max-width: 1800px; padding: 16px 24px 48px; color: #222; }
h1 { font-size: 22px; margin: 8px 0; } h2 { font-size: 18px; margin-top: 32px; border-bottom: 1px solid #ddd; padding-bottom: 4px; }
h3 { font-size: 15px; } h4 { font-size: 13px; margin: 12px 0 6px; color: #333; }
table { border-collapse: collapse; margin: 8px 0 16px; font-size: 13px; }
th, td { border: 1px solid #ddd; padding: 3px 8px; text-align: right; vertical-align: top; }
th { background: #f5f5f5; } td.text, th.text { text-align: left; }
td { white-space: nowrap; } td.wrap { white-space: normal; min-width: 10em; text-align: left; }
.table-box { overflow-x: auto; max-width: 100%; }
caption { text-align: left; font-weight: 600; padding: 4px 0; }
.note, .caption { color: #555; font-size: 13px; }
.warning { background: #fff3cd; border: 1px solid #e0c36a; padding: 8px 12px; border-radius: 4px; }
svg.chart { width: 100%; height: auto; max-width: 1100px; display: block; margin: 8px 0; }
svg .grid { stroke: #e5e5e5; } svg .tick { font-size: 11px; fill: #444; } svg .count { font-size: 10px; fill: #222; }
svg .panel-title { font-size: 13px; font-weight: 600; } svg .mark { fill: #fff; font-weight: 700; }
.chart-key { display: flex; flex-wrap: wrap; gap: 2px 18px; margin: 0 0 4px; font-size: 13px; color: #333; } .key-entry svg { vertical-align: -1px; }
.picker { display: flex; gap: 12px; flex-wrap: wrap; align-items: end; background: #f7f7f7; padding: 10px; border-radius: 6px; }
.picker label { display: flex; flex-direction: column; font-size: 12px; color: #555; }
.picker select { font-size: 13px; max-width: 520px; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 8px 0; }
dl.facts dt { color: #555; } dl.facts dd { margin: 0; }
.block { margin: 4px 0; } .block .label { font-size: 11px; color: #666; text-transform: uppercase; letter-spacing: 0.03em; }
pre.text { white-space: pre-wrap; word-break: break-word; background: #fafafa; border: 1px solid #eee; padding: 6px 8px; margin: 2px 0 6px; font: 12px/1.4 ui-monospace, Menlo, Consolas, monospace; }
.answer pre.text { background: #fffbe6; } .reply pre.text { background: #eef6ff; }
section.call, section.retrieval { border-left: 3px solid #ccd; padding-left: 10px; margin: 12px 0; }
.tool-call { margin: 6px 0 6px 12px; padding-left: 8px; border-left: 3px solid #9c9; } .tool-call.malformed { border-left-color: #d88; }
.error { color: #a00; } details.prompt summary { cursor: pointer; color: #336; font-size: 12px; }
.manifest dd { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 12px; word-break: break-all; }
`;
