import asyncio, logging
log = logging.getLogger("client")

async def slow():
    await asyncio.sleep(5)

async def fetch():
    try:
        return await asyncio.wait_for(slow(), 0.05)
    except asyncio.TimeoutError:
        log.exception("primary endpoint timed out after 0.05s, using cache")
        return "cached"

async def test_fetch_falls_back():
    assert await fetch() == "cached"

async def test_gather():
    assert await asyncio.gather(asyncio.sleep(0, 1), asyncio.sleep(0, 2)) == [1, 2]
