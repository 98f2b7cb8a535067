import sys
def main(argv):
    if "--port" in argv and not argv[argv.index("--port") + 1].isdigit():
        print(f"Error: invalid value for --port: {argv[argv.index('--port') + 1]!r}", file=sys.stderr)
        return 2
    if "--bogus" in argv:
        print("Error: No such option: --bogus", file=sys.stderr)
        return 2
    return 0
