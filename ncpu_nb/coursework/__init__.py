"""Coursework: autograding checks for assignments, and the instructor's side on nbgrader.

    from ncpu_nb.coursework import check, random_cases      # nCPU programs on many cases at once
    from ncpu_nb.coursework.circuits import Circuit          # threshold-neuron circuits
    from ncpu_nb.coursework import course                    # release and grade with nbgrader
"""
from ncpu_nb.coursework.ncpu_cases import CaseResult, GradeReport, check, random_cases

__all__ = ["CaseResult", "GradeReport", "check", "random_cases"]
