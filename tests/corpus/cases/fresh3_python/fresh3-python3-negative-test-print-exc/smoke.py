import json, traceback
bad = ['{"a": 1,}', "[1, 2", "{'single': 'quotes'}"]
for text in bad:
    try:
        json.loads(text)
    except json.JSONDecodeError:
        traceback.print_exc()
        print(f"OK: rejected {text!r}")
    else:
        raise SystemExit(f"FAIL: accepted {text!r}")
print("smoke checks passed: 3/3")
