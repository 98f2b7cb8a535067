import asyncio

async def fetch(port):
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.close()
    return f"port {port} ok"

async def main():
    results = await asyncio.gather(fetch(1), fetch(9), fetch(2), return_exceptions=True)
    for r in results:
        print("result:", r)
    print("all fetches processed")

asyncio.run(main())
