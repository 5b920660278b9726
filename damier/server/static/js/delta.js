// Applying a view's delta (a room's socket sends what changed when its view is large): the operations of the
// server's JSON diff, damier/server/rooms/delta.py, op for op (docs/server.md). A path is a list of keys and
// indices from the root:
//   ["set", path, value]     the value at path becomes value (an object's new key too; []: the root)
//   ["del", path]            the object key at the end of path is removed
//   ["push", path, items]    the array at path grows by items
//   ["trim", path, length]   the array at path keeps its first length items
//   ["copy", path, source]   the value at path becomes a copy of what was at source before the patch

/** `value` with the operations applied: a changed copy (`value` is left as it was). An operation that does not
 * fit the value throws an Error. */
export function applyPatch(value, ops) {
  if (!Array.isArray(ops)) throw new Error("a patch is an array of operations");
  let result = structuredClone(value);
  for (const op of ops) result = applyOp(result, op, value);
  return result;
}

function applyOp(root, op, base) {
  if (!Array.isArray(op) || op.length !== (op[0] === "del" ? 2 : 3) || !Array.isArray(op[1])) {
    throw new Error(`not an operation: ${JSON.stringify(op)}`);
  }
  let [name, path, arg] = op;
  if (name === "copy") {
    if (!Array.isArray(arg)) throw new Error(`not an operation: ${JSON.stringify(op)}`);
    [name, arg] = ["set", walk(base, arg, "copy", arg)];
  }
  if (name === "set" && path.length === 0) return structuredClone(arg);
  if (name === "push" || name === "trim") {
    const target = walk(root, path, name, path);
    if (!Array.isArray(target)) throw new Error(`bad ${name} at ${JSON.stringify(path)}: not an array`);
    if (name === "push" && Array.isArray(arg)) target.push(...structuredClone(arg));
    else if (name === "trim" && Number.isInteger(arg) && arg >= 0 && arg <= target.length) target.length = arg;
    else throw new Error(`bad ${name} at ${JSON.stringify(path)}: ${JSON.stringify(arg)}`);
    return root;
  }
  if ((name !== "set" && name !== "del") || path.length === 0) throw new Error(`not an operation: ${JSON.stringify(op)}`);
  const parent = walk(root, path.slice(0, -1), name, path);
  const key = path[path.length - 1];
  if (isObject(parent) && typeof key === "string") {
    if (name === "set") {
      // an own property even for a key such as "__proto__" (as JSON.parse makes it)
      Object.defineProperty(parent, key, { value: structuredClone(arg), writable: true, enumerable: true, configurable: true });
    } else if (Object.hasOwn(parent, key)) {
      delete parent[key];
    } else {
      throw new Error(`bad del at ${JSON.stringify(path)}: no key ${JSON.stringify(key)}`);
    }
  } else if (Array.isArray(parent) && name === "set" && isIndex(parent, key)) {
    parent[key] = structuredClone(arg);
  } else {
    throw new Error(`bad ${name} at ${JSON.stringify(path)}: no ${JSON.stringify(key)} there`);
  }
  return root;
}

function walk(root, path, name, whole) {
  let node = root;
  for (const key of path) {
    if ((isObject(node) && typeof key === "string" && Object.hasOwn(node, key)) || (Array.isArray(node) && isIndex(node, key))) {
      node = node[key];
    } else {
      throw new Error(`bad ${name} at ${JSON.stringify(whole)}: no ${JSON.stringify(key)} there`);
    }
  }
  return node;
}

function isObject(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function isIndex(array, key) {
  return Number.isInteger(key) && key >= 0 && key < array.length;
}
