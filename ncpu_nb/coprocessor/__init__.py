"""The neural ALU as a transformer's differentiable coprocessor (chapter 17).

    arithmetic_text   the data: arithmetic as character text, the held-out split, decoder labels
    model             the tiny transformer both arms share
    alu_coprocessor   gate + operand decoders + NeuralALU + write-back; inject_ncpu_coprocessor(model, config)
    experiment        train and score both arms on the same seeds, data and steps; Comparison
    copro_bench       `ncpu-nb bench coprocessor`: the full three-seed comparison
    copro_weights     the shipped seed-0 models of both arms: write (retrain) and load_trained
"""
