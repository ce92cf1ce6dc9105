// Building the page: elements from tag, attributes and children. Text is only ever set as text (never as
// HTML), so a name or a chat line is shown as typed and can never become markup.

// `tag` is a name with optional `#id` and `.class` parts, as in CSS: "button#lock-in.primary".
export function h(tag, attrs = {}, ...children) {
  const parts = tag.match(/[#.]?[^#.]+/g) || ["div"];
  const el = document.createElement(parts[0].startsWith("#") || parts[0].startsWith(".") ? "div" : parts[0]);
  const classes = parts.filter((p) => p.startsWith(".")).map((p) => p.slice(1));
  const id = parts.find((p) => p.startsWith("#"));
  if (id) el.id = id.slice(1);
  if (classes.length) el.className = classes.join(" ");
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (key === "class") el.className = [el.className, value].filter(Boolean).join(" ");
    else if (key === "text") el.textContent = String(value);
    else if (key === "dataset") Object.assign(el.dataset, value);
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === undefined || child === null || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

export function button(label, onclick, attrs = {}) {
  return h("button", { type: "button", ...attrs, onclick }, label);
}

export function clear(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

export function seconds(value) {
  const total = Math.max(0, Math.ceil(value));
  const m = Math.floor(total / 60);
  const s = total % 60;
  return `${m}:${String(s).padStart(2, "0")}`;
}
