import asyncio, gc
async def heartbeat(cfg):
    await asyncio.sleep(0.01)
    return cfg["heartbeat_url"]
async def main():
    t = asyncio.get_running_loop().create_task(heartbeat({}))
    await asyncio.sleep(0.05)
    print("sync finished: heartbeat sent")
    del t
    gc.collect()
asyncio.run(main())
