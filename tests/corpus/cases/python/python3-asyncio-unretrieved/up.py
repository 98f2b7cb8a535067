import asyncio, gc
async def upload():
    raise ConnectionError("upload to bucket failed: connection refused")
async def main():
    asyncio.get_running_loop().create_task(upload())
    await asyncio.sleep(0.05)
asyncio.run(main())
gc.collect()
