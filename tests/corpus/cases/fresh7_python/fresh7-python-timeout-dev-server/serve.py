import http.server, socketserver
with socketserver.TCPServer(("127.0.0.1", 0), http.server.SimpleHTTPRequestHandler) as httpd:
    print(f"Serving on http://127.0.0.1:{httpd.server_address[1]} (Ctrl-C to stop)")
    httpd.serve_forever()
