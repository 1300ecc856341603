"""The neural ALU: trained cells (`cells`) wired into exact 32-bit operations (`neural_alu`)."""
