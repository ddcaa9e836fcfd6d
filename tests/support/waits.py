"""Condition waits for the tests: poll until something is so, never sleep a fixed time
and hope (a loaded machine makes a fixed sleep too short; an idle one wastes it).

    wait_for(test, timeout, what)  -> test()'s first true value; AssertionError naming
                                      `what` once `timeout` seconds have gone by
    appears(path, timeout)         -> whether `path` exists within `timeout` seconds
    wait_js(driver, script, ...)   -> the first true value of a page's script (Selenium)
"""

import time


def wait_for(test, timeout=20, what="the condition", every=0.05):
    """Call `test()` every `every` seconds until it returns something true; return it."""
    end = time.monotonic() + timeout
    while True:
        value = test()
        if value:
            return value
        assert time.monotonic() < end, "timed out after %g s waiting for %s" % (timeout, what)
        time.sleep(every)


def appears(path, timeout=20):
    """Whether `path` exists within `timeout` seconds (False, not an error, if not)."""
    end = time.monotonic() + timeout
    while not path.exists():
        if time.monotonic() >= end:
            return False
        time.sleep(0.1)
    return True


def wait_js(driver, script, timeout=20.0, what="the page"):
    """`wait_for` of a script run in the browser's page (Selenium's execute_script)."""
    return wait_for(lambda: driver.execute_script(script), timeout, what)
