def walk(node, depth=0):
    out = [node["name"]]
    for child in node.get("children", []):
        out.extend(walk(child, depth + 1))
    return out

root = {"name": "root", "children": [{"name": "a"}, {"name": "b", "children": []}]}
root["children"][1]["children"].append(root)
print(walk(root))
