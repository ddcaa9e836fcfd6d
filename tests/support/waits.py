"""Condition waits for the tests: poll until something is so, never sleep a fixed time
and hope (a loaded machine makes a fixed sleep too short; an idle one wastes it).

    poll(test, timeout, every)     -> test()'s first true value, or None once `timeout`
                                      seconds have gone by (for a test that asks whether)
    wait_for(test, timeout, what)  -> test()'s first true value; AssertionError naming
                                      `what` (a string, or a function that says it then)
                                      once `timeout` seconds have gone by
    appears(path, timeout)         -> whether `path` exists within `timeout` seconds
    wait_js(driver, script, ...)   -> the first true value of a page's script (Selenium)

A sleep that stays in a test is its subject: a referee's pace, a gap between presses, a
rate of sampling, a moment chosen to interrupt at.
"""

import time


def poll(test, timeout=20, every=0.05):
    """Call `test()` every `every` seconds until it returns something true; return it, or
    None if `timeout` seconds go by first (`test` is always called at least once)."""
    end = time.monotonic() + timeout
    while True:
        value = test()
        if value:
            return value
        if time.monotonic() >= end:
            return None
        time.sleep(every)


def wait_for(test, timeout=20, what="the condition", every=0.05):
    """Call `test()` every `every` seconds until it returns something true; return it.
    `what` names what is waited for in the failure; a callable `what` is asked for it
    when the time is up (to say how things stood)."""
    value = poll(test, timeout, every)
    if not value:
        said = what() if callable(what) else what
        raise AssertionError("timed out after %g s waiting for %s" % (timeout, said))
    return value


def appears(path, timeout=20):
    """Whether `path` exists within `timeout` seconds (False, not an error, if not)."""
    return poll(path.exists, timeout, 0.1) is not None


def wait_js(driver, script, timeout=20.0, what="the page"):
    """`wait_for` of a script run in the browser's page (Selenium's execute_script)."""
    return wait_for(lambda: driver.execute_script(script), timeout, what)
