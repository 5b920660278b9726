// Applying a view's delta (a room's socket sends what changed when its view is large): an RFC 6902 JSON Patch,
// made by the server's JSON diff (damier/server/rooms/delta.py; docs/server.md). Any JSON Patch library applies
// it; this is a small applier of the whole standard, so the page needs no library:
//   {op: "add", path, value}      an object's key (new or not), or an item inserted in an array ("-": at its end)
//   {op: "remove", path}          an object's key, or an array's item
//   {op: "replace", path, value}  the value at path, which must be there ("": the whole value)
//   {op: "move", from, path}      remove at from, then add at path
//   {op: "copy", from, path}      add at path a copy of the value at from
//   {op: "test", path, value}     the value at path must equal value, or the patch fails
// Paths are JSON pointers (RFC 6901): "/board/previews/0", "~1" for "/" and "~0" for "~" in a key.

/** `value` with the patch applied: a changed copy (`value` is left as it was). An operation that does not fit
 * the value throws an Error, and nothing of the patch is kept. */
export function applyPatch(value, ops) {
  if (!Array.isArray(ops)) throw new Error("a patch is an array of operations");
  let result = structuredClone(value);
  for (const op of ops) result = applyOp(result, op);
  return result;
}

function applyOp(root, op) {
  if (!isObject(op) || typeof op.path !== "string") throw new Error(`not an operation: ${JSON.stringify(op)}`);
  const path = parse(op.path);
  switch (op.op) {
    case "add":
    case "replace":
      if (!("value" in op)) throw new Error(`bad ${op.op} at ${op.path}: no value`);
      return put(root, path, structuredClone(op.value), op.op, op.path);
    case "remove":
      return take(root, path, op.path).root;
    case "copy":
    case "move": {
      if (typeof op.from !== "string") throw new Error(`bad ${op.op} at ${op.path}: no from`);
      const from = parse(op.from);
      if (op.op === "move" && path.length > from.length && from.every((key, i) => key === path[i])) {
        throw new Error(`bad move at ${op.path}: into its own value`);
      }
      if (op.op === "copy") return put(root, path, structuredClone(at(root, from, op.from)), "add", op.path);
      const taken = take(root, from, op.from);
      return put(taken.root, path, taken.value, "add", op.path);
    }
    case "test":
      if (JSON.stringify(sorted(at(root, path, op.path))) !== JSON.stringify(sorted(op.value))) {
        throw new Error(`test failed at ${op.path}`);
      }
      return root;
    default:
      throw new Error(`not an operation: ${JSON.stringify(op)}`);
  }
}

/** The keys of a JSON pointer. */
function parse(pointer) {
  if (pointer === "") return [];
  if (!pointer.startsWith("/")) throw new Error(`not a JSON pointer: ${JSON.stringify(pointer)}`);
  return pointer.slice(1).split("/").map((key) => key.replace(/~1/g, "/").replace(/~0/g, "~"));
}

/** Add (insert into an array, set an object's key) or replace the value at `path`; the root, changed. */
function put(root, path, value, name, pointer) {
  if (path.length === 0) return value;
  const parent = at(root, path.slice(0, -1), pointer);
  const key = path[path.length - 1];
  if (Array.isArray(parent)) {
    const end = name === "add" ? parent.length : parent.length - 1;
    const index = key === "-" && name === "add" ? parent.length : toIndex(key, end, pointer);
    if (name === "add") parent.splice(index, 0, value);
    else parent[index] = value;
  } else if (isObject(parent)) {
    if (name === "replace" && !Object.hasOwn(parent, key)) throw new Error(`bad replace at ${pointer}: no key there`);
    // an own property even for a key such as "__proto__" (as JSON.parse makes it)
    Object.defineProperty(parent, key, { value, writable: true, enumerable: true, configurable: true });
  } else {
    throw new Error(`bad ${name} at ${pointer}: not inside an object or an array`);
  }
  return root;
}

/** Remove the value at `path`: the root, changed, and the value removed. */
function take(root, path, pointer) {
  if (path.length === 0) throw new Error("bad remove: the whole value");
  const parent = at(root, path.slice(0, -1), pointer);
  const key = path[path.length - 1];
  if (Array.isArray(parent)) {
    const [value] = parent.splice(toIndex(key, parent.length - 1, pointer), 1);
    return { root, value };
  }
  if (isObject(parent) && Object.hasOwn(parent, key)) {
    const value = parent[key];
    delete parent[key];
    return { root, value };
  }
  throw new Error(`bad remove at ${pointer}: no ${JSON.stringify(key)} there`);
}

/** The value at `path`. */
function at(root, path, pointer) {
  let node = root;
  for (const key of path) {
    if (isObject(node) && Object.hasOwn(node, key)) node = node[key];
    else if (Array.isArray(node)) node = node[toIndex(key, node.length - 1, pointer)];
    else throw new Error(`bad path ${pointer}: no ${JSON.stringify(key)} there`);
  }
  return node;
}

/** An array index written in a pointer (digits, no leading zero), at most `last`. */
function toIndex(key, last, pointer) {
  if (!/^(0|[1-9][0-9]*)$/.test(key) || Number(key) > last) {
    throw new Error(`bad path ${pointer}: no item ${JSON.stringify(key)} in an array of ${last + 1}`);
  }
  return Number(key);
}

/** A value with its objects' keys sorted (for comparing two values as JSON). */
function sorted(value) {
  if (Array.isArray(value)) return value.map(sorted);
  if (isObject(value)) return Object.fromEntries(Object.keys(value).sort().map((key) => [key, sorted(value[key])]));
  return value;
}

function isObject(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
