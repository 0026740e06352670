// ProtoHttp explorer: the one DOM helper the explorer's modules share.
export function el(tag, attributes, text) {
  const node = document.createElement(tag);
  Object.entries(attributes || {}).forEach(([name, value]) => node.setAttribute(name, value));
  if (text !== undefined) {
    node.textContent = text;
  }
  return node;
}
