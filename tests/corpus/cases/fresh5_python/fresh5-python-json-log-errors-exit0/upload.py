import json, sys, time
files = ["a.parquet", "b.parquet", "c.parquet"]
done = 0
for f in files:
    try:
        raise PermissionError(13, "Permission denied", f"/mnt/bucket/{f}")
    except OSError as e:
        print(json.dumps({"level": "error", "msg": "upload failed", "file": f, "error": str(e)}), file=sys.stderr)
print(json.dumps({"level": "info", "msg": "upload finished", "uploaded": done, "total": len(files)}), file=sys.stderr)
