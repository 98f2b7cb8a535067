import asyncio
async def fetch(url):
    await asyncio.sleep(0.01)
    if "admin" in url:
        raise PermissionError(f"403 Forbidden: {url}")
    return url
async def main():
    async with asyncio.TaskGroup() as tg:
        for u in ["/", "/about", "/admin"]:
            tg.create_task(fetch(u))
asyncio.run(main())
