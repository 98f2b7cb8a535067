import sys
name = sys.argv[1]
if name != "1.jpg":
    raise ValueError(f"{name}: truncated JPEG data, cannot resize")
print(f"{name}: resized to 640x480")
