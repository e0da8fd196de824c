"""docs/MODULES.md lists every module with its job, the first sentence of its docstring:
the page is current, and every module has a docstring to give it."""

from dynval._modules import job, main, page


def test_the_modules_page_is_current():
    assert main(["--check"]) == 0, "run python -m dynval._modules"


def test_every_module_says_its_job():
    assert "(no docstring)" not in page()


def test_a_job_is_the_first_sentence():
    assert job("Where it is.  More\n  here.") == "Where it is."
    assert job("Uses ``a.b`` as in eq. (3), e.g. Sec. IV. Then") == (
        "Uses ``a.b`` as in eq. (3), e.g. Sec. IV.")
